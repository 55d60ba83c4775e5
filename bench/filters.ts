// The lists' filters at scale (`npm run bench:api`; BENCH_PAYMENTS=10000000 for the figures in BENCHMARKS.md):
// each filter's first page and page 50,000, in the API and the dashboard, and the Customers pages, one request
// at a time (time to the full response).
import { percentile } from "./harness";
import type { BenchSeed } from "./seed";

const SAMPLES = 30;

export async function time(url: string, headers: Record<string, string>) {
  const times: number[] = [];
  for (let index = 0; index < SAMPLES; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { "p50 ms": Math.round(percentile(times, 50)), "p99 ms": Math.round(percentile(times, 99)) };
}

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** The filters a merchant's systems and people use most, alone and combined, at their first and a deep page. */
export async function measureFilters(baseUrl: string, seed: BenchSeed, cookie: string) {
  const filters: Array<[string, string, string]> = [
    ["status", "status=completed", "status=completed"],
    ["customer", `customer_id=${seed.bigCustomer}`, `q=${seed.bigCustomer}`],
    [
      "status and date",
      `status=failed&created_from=${day(200)}&created_to=${day(20)}`,
      `status=failed&from=${day(200)}&to=${day(20)}`,
    ],
  ];
  const rows: Array<Record<string, string | number>> = [];
  const api = { Authorization: `Bearer ${seed.tokens[0]}` };
  for (const [name, apiQuery, dashboardQuery] of filters)
    for (const page of [1, 50_000]) {
      rows.push({
        Request: `GET /api/payments?${name === "customer" ? "customer_id=…" : apiQuery}&page=${page}`,
        ...(await time(`${baseUrl}/api/payments?${apiQuery}&page=${page}`, api)),
      });
      // The dashboard's search box is the customer filter there (a customer id matches exactly).
      if (name === "customer") continue;
      rows.push({
        Request: `Dashboard /payments?${dashboardQuery}&pageSize=10&page=${page}`,
        ...(await time(`${baseUrl}/dashboard/payments?${dashboardQuery}&pageSize=10&page=${page}`, {
          cookie,
        })),
      });
    }
  // The refunds (a twentieth of the payments at the seed's rate) and the customer search, beside the page of one
  // payment that the issue holds them to (at most 1.5 times it).
  const onePayment = seed.firstPaymentId + Math.floor(seed.payments / 2);
  for (const [name, path] of [
    ["GET /api/payments/{id} (one payment)", `/api/payments/${onePayment}`],
    ["Dashboard /payments/{id} (one payment)", `/dashboard/payments/${onePayment}`],
    ["GET /api/refunds (page 1)", "/api/refunds"],
    ["GET /api/refunds?page=40000", "/api/refunds?page=40000"],
    ["GET /api/refunds?status=succeeded&page=40000", "/api/refunds?status=succeeded&page=40000"],
    ["Dashboard /refunds (page 1)", "/dashboard/refunds"],
    ["Dashboard /refunds?page=16000", "/dashboard/refunds?page=16000"],
    ["Dashboard search: customer id, exactly (20 matches)", "/dashboard/payments?q=cus_4242"],
    ["Dashboard search: customer id prefix (cus_424: 11 customers)", "/dashboard/payments?q=cus_424"],
    [`Dashboard search: the big customer, page 2`, `/dashboard/payments?q=${seed.bigCustomer}&page=2`],
    // The last page the capped count (10,000+) offers at 50 a page.
    [
      `Dashboard search: the big customer, page 200`,
      `/dashboard/payments?q=${seed.bigCustomer}&pageSize=50&page=200`,
    ],
    ["Dashboard /customers (page 1)", "/dashboard/customers"],
    ["Dashboard /customers (page 1,000)", "/dashboard/customers?page=1000"],
    ["Dashboard /customers/{the big customer}", `/dashboard/customers/${seed.bigCustomer}`],
    ["GET /api/customers", "/api/customers"],
  ] as const)
    rows.push({
      Request: name,
      ...(await time(`${baseUrl}${path}`, path.startsWith("/api") ? api : { cookie })),
    });
  return rows;
}
