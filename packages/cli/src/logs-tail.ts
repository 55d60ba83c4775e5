import type { Payments, RequestLogEntry } from "@payments-platform/sdk";
import { color, emit } from "./output.js";

/** How often the log is read: entries appear within a second or two of their request. */
const POLL_MS = 2000;

function line(entry: RequestLogEntry): string {
  const tone = entry.status >= 500 ? color.red : entry.status >= 400 ? color.yellow : color.green;
  return `${entry.created_at}  ${tone(String(entry.status))} ${entry.method} ${entry.path} ${entry.latency_ms} ms [${entry.request_id}]`;
}

/** `payments logs tail`: the latest API requests, then each new one as it is logged, until Ctrl-C. */
export async function tailLogs(
  client: Payments,
  options: { status?: "2xx" | "4xx" | "5xx"; json?: boolean },
): Promise<void> {
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  const print = (entry: RequestLogEntry) =>
    emit(options.json === true, { type: "request", ...entry }, line(entry));
  const latest = await client.requestLogs.list({ status: options.status, limit: 10 });
  latest.reverse().forEach(print);
  let after = latest.at(-1)?.id ?? 0;
  while (!stop.signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (stop.signal.aborted) return;
    const entries = await client.requestLogs.list({ status: options.status, after, limit: 100 });
    entries.forEach(print);
    after = entries.at(-1)?.id ?? after;
  }
}
