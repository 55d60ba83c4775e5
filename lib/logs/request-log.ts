import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { logger } from "@/lib/platform/logger";

/**
 * The API request log's writer. A request only appends its entry to this process's buffer; the buffer is
 * written in one multi-row insert every second (or at 500 entries), so no request waits for its log row.
 * The cost: a process that crashes loses its last second of log entries (never a payment). A stopping
 * process writes what it holds first.
 */
export type RequestLogEntry = {
  merchantId: number;
  tokenId: number;
  requestId: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  clientIp: string;
  idempotencyKey: string | null;
  /** Kept for 4xx and 5xx answers only (at most 4 KiB): what a developer debugging a failure needs. */
  responseBody: string | null;
  createdAt: Date;
};

const FLUSH_INTERVAL_MS = 1000;
const FLUSH_SIZE = 500;
/** Beyond this many waiting entries (the database is down), new ones are dropped rather than hoarded. */
const MAX_BUFFERED = 20_000;
const MAX_BODY_CHARS = 4096;
const MAX_PATH_CHARS = 2048;

const buffer: RequestLogEntry[] = [];
let timer: NodeJS.Timeout | undefined;
let writing: Promise<void> = Promise.resolve();
let dropped = 0;

export function recordApiRequest(entry: RequestLogEntry): void {
  if (buffer.length >= MAX_BUFFERED) {
    dropped += 1;
    return;
  }
  buffer.push({
    ...entry,
    path: entry.path.slice(0, MAX_PATH_CHARS),
    responseBody: entry.status >= 400 ? (entry.responseBody?.slice(0, MAX_BODY_CHARS) ?? null) : null,
  });
  if (buffer.length >= FLUSH_SIZE) void flushRequestLog();
  else timer ??= setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS).unref();
}

/**
 * One statement with one JSON parameter, whatever the batch size: the same text every time (prepared once
 * per connection), and no per-row SQL to build in this process, which also serves the requests.
 */
async function write(entries: RequestLogEntry[]): Promise<void> {
  const rows = JSON.stringify(
    entries.map((e) => ({
      merchant_id: e.merchantId,
      token_id: e.tokenId,
      request_id: e.requestId,
      method: e.method,
      path: e.path,
      status: e.status,
      latency_ms: e.latencyMs,
      client_ip: e.clientIp,
      idempotency_key: e.idempotencyKey,
      response_body: e.responseBody,
      created_at: e.createdAt,
    })),
  );
  await getDb().execute(sql`
    insert into api_request_logs (merchant_id, token_id, request_id, method, path, status, latency_ms,
                                  client_ip, idempotency_key, response_body, created_at)
    select merchant_id, token_id, request_id, method, path, status, latency_ms, client_ip, idempotency_key,
           response_body, created_at
    from json_to_recordset(${rows}::json) as r(merchant_id bigint, token_id bigint, request_id text,
      method text, path text, status int, latency_ms float8, client_ip text, idempotency_key text,
      response_body text, created_at timestamptz)`);
}

/** Writes what the buffer holds (one write at a time; a failed batch is retried with the next one). */
export function flushRequestLog(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  writing = writing.then(async () => {
    const entries = buffer.splice(0, FLUSH_SIZE);
    if (entries.length === 0) return;
    try {
      await write(entries);
    } catch (error) {
      buffer.unshift(...entries.slice(0, MAX_BUFFERED - buffer.length));
      logger.warn(
        { err: { message: (error as Error).message }, waiting: buffer.length },
        "Request log not written",
      );
    }
    if (dropped > 0) {
      logger.warn({ dropped }, "Request log entries dropped while the database was unreachable");
      dropped = 0;
    }
    if (buffer.length > 0) timer ??= setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS).unref();
  });
  return writing;
}

/** For a web process's background services: nothing to start; at stop, the buffer is written. */
export function startRequestLogWriter(): Promise<() => Promise<void>> {
  return Promise.resolve(async () => {
    while (buffer.length > 0) {
      const before = buffer.length;
      await flushRequestLog();
      if (buffer.length >= before) break;
    }
  });
}
