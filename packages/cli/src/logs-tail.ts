import type { Payments, RequestLogEntry } from "@payments-platform/sdk";
import { color, emit, timestamp } from "./output.js";

/** How often the log is read: entries appear within a second or two of their request. */
const POLL_MS = 2000;
/**
 * How long an entry waits before it is printed: each server process writes its log in batches (every second),
 * so an entry can arrive after a later one from another process. Held this long, they print in time order.
 */
const SETTLE_MS = 3000;
/** The CLI's own reads of the log, which would otherwise fill it. */
const isLogPolling = (entry: RequestLogEntry) => entry.path.startsWith("/api/request-logs");

function line(entry: RequestLogEntry): string {
  const tone = entry.status >= 500 ? color.red : entry.status >= 400 ? color.yellow : color.green;
  return `${timestamp(entry.created_at)}  ${tone(String(entry.status))} ${entry.method} ${entry.path} ${entry.latency_ms} ms [${entry.request_id}]`;
}

const byTime = (a: RequestLogEntry, b: RequestLogEntry) =>
  Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id;

/**
 * `payments logs tail`: the latest API requests, then each new one as it is logged, in time order, until
 * Ctrl-C. Its own polling of the log is left out.
 */
export async function tailLogs(
  client: Payments,
  options: { status?: "2xx" | "4xx" | "5xx"; json?: boolean },
): Promise<void> {
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  const print = (entry: RequestLogEntry) =>
    emit(options.json === true, { type: "request", ...entry }, line(entry));
  const latest = (await client.requestLogs.list({ status: options.status, limit: 100 })).filter(
    (entry) => !isLogPolling(entry),
  );
  latest.slice(0, 10).sort(byTime).forEach(print);
  let after = Math.max(0, ...latest.map((entry) => entry.id));
  const waiting: RequestLogEntry[] = [];
  while (!stop.signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (stop.signal.aborted) return;
    const entries = await client.requestLogs.list({ status: options.status, after, limit: 100 });
    after = Math.max(after, ...entries.map((entry) => entry.id));
    waiting.push(...entries.filter((entry) => !isLogPolling(entry)));
    waiting.sort(byTime);
    const settled = Date.now() - SETTLE_MS;
    while (waiting.length > 0 && Date.parse(waiting[0]!.created_at) <= settled) {
      print(waiting.shift()!);
    }
  }
}
