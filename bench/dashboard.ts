// Dashboard timings on the seeded merchant: the payments page's server time (unfiltered and filtered, over
// real HTTP with a logged-in session) and the CSV export of every payment with the server's memory.
import { percentile, type RunningServer } from "./harness";
import { logInOverHttp } from "../tests/support/http-session";

async function timePage(url: string, cookie: string, samples = 40) {
  const times: number[] = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: Math.round(percentile(times, 50)), p99: Math.round(percentile(times, 99)) };
}

export async function measureDashboard(
  server: RunningServer,
  email: string,
  password: string,
  firstPaymentId: number,
) {
  const { cookie } = await logInOverHttp(server.baseUrl, email, password);
  const pages = [
    ["Payments page 1 (25 per page)", "/dashboard/payments"],
    ["Payments page 40,000 (25 per page)", "/dashboard/payments?page=40000"],
    ["Payments filtered by status", "/dashboard/payments?status=failed"],
    ["Search: external id prefix, any case (11 matches)", "/dashboard/payments?q=BENCH_50000"],
    ["Search: customer id (20 matches)", "/dashboard/payments?q=cus_4242"],
    ["Search: payment id", `/dashboard/payments?q=${firstPaymentId + 499_999}`],
    ["Search: prefix matching all 1,000,000 (count capped)", "/dashboard/payments?q=bench_"],
    [
      "Search + status + date range",
      `/dashboard/payments?q=cus_4242&status=completed&from=2020-01-01&to=${new Date().toISOString().slice(0, 10)}`,
    ],
    ["Overview (stats over all payments)", "/dashboard"],
  ] as const;
  const rows: Array<Record<string, string | number>> = [];
  for (const [name, path] of pages) {
    const timing = await timePage(`${server.baseUrl}${path}`, cookie);
    rows.push({ Page: name, "p50 ms": timing.p50, "p99 ms": timing.p99 });
  }
  const exportRow = await measureExport(server, "/dashboard/payments/export", cookie);
  return { pages: rows, exportRow };
}

/** A dashboard CSV read to its end as fast as it streams: rows, size, time, rows/s and the server's peak RSS. */
export async function measureExport(server: RunningServer, path: string, cookie: string) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { cookie } });
  let bytes = 0;
  let lines = 0;
  const memory: number[] = [];
  const sampler = setInterval(() => memory.push(server.peakRssMb()), 500);
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  return {
    export: path,
    rows: lines - 1,
    megabytes: Math.round(bytes / 1e6),
    seconds: seconds.toFixed(1),
    "rows/s": Math.round((lines - 1) / seconds),
    "server peak RSS MB": server.peakRssMb(),
  };
}
