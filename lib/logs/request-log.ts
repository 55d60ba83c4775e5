import "server-only";
import { sql } from "drizzle-orm";
import { getBackgroundDb, selectRows } from "@/db/client";
import { logger } from "@/lib/platform/logger";

/**
 * The API request log's writer. A request only appends its entry to this process's buffer; the buffer is
 * written in one insert every second, or at once in batches of 500 while that many wait, one write at a
 * time, so no request waits for its log row.
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
  /**
   * When the request arrived, in epoch milliseconds: the time its id carries (timeOrderedId), so a request
   * id is found through the (merchant, time) index with no index of its own.
   */
  createdAtMs: number;
};

const FLUSH_INTERVAL_MS = 1000;
const FLUSH_SIZE = 500;
/** Beyond this many waiting entries (the database is down), new ones are dropped rather than hoarded. */
const MAX_BUFFERED = 20_000;
const MAX_BODY_CHARS = 4096;
const MAX_PATH_CHARS = 2048;

/** Entries as JSON text: one flat string each, cheap for the garbage collector while they wait. */
const buffer: string[] = [];
let timer: NodeJS.Timeout | undefined;
/** The write under way, if any: one at a time, and a request never queues another behind it. */
let writing: Promise<void> | undefined;
let dropped = 0;

export function recordApiRequest(entry: RequestLogEntry): void {
  if (buffer.length >= MAX_BUFFERED) {
    dropped += 1;
    return;
  }
  // One-letter keys (the columns of the insert's recordset): a third of the bytes to build, send and parse.
  buffer.push(
    JSON.stringify({
      m: entry.merchantId,
      t: entry.tokenId,
      r: entry.requestId,
      v: entry.method,
      p: entry.path.slice(0, MAX_PATH_CHARS),
      s: entry.status,
      l: entry.latencyMs,
      i: entry.clientIp,
      k: entry.idempotencyKey,
      b: entry.status >= 400 ? (entry.responseBody?.slice(0, MAX_BODY_CHARS) ?? null) : null,
      c: entry.createdAtMs,
    }),
  );
  if (writing) return;
  if (buffer.length >= FLUSH_SIZE) void flushRequestLog();
  else timer ??= setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS).unref();
}

/**
 * One statement with one JSON parameter, whatever the batch size: the same text every time (prepared once
 * per connection), and no per-row SQL to build in this process, which also serves the requests. It goes on
 * the background connection, so no request's statement waits behind it.
 */
async function write(entries: string[]): Promise<void> {
  await selectRows(
    getBackgroundDb(),
    sql`
    insert into api_request_logs (merchant_id, token_id, request_id, method, path, status, latency_ms,
                                  client_ip, idempotency_key, response_body, created_at)
    select m, t, r, v, p, s, l, i, k, b, to_timestamp(c / 1000)
    from json_to_recordset(${`[${entries.join(",")}]`}::json) as e(m bigint, t bigint, r text, v text,
      p text, s int, l float8, i text, k text, b text, c float8)`,
  );
}

/**
 * Writes what the buffer holds, a batch at a time, while full batches are waiting; a partial batch waits for
 * the next tick of the timer. A failed batch goes back to the front and is retried with the next one.
 */
export function flushRequestLog(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  writing ??= (async () => {
    try {
      do {
        const entries = buffer.splice(0, FLUSH_SIZE);
        if (entries.length === 0) break;
        try {
          await write(entries);
        } catch (error) {
          buffer.unshift(...entries.slice(0, MAX_BUFFERED - buffer.length));
          logger.warn(
            { err: { message: (error as Error).message }, waiting: buffer.length },
            "Request log not written",
          );
          break;
        }
      } while (buffer.length >= FLUSH_SIZE);
      if (dropped > 0) {
        logger.warn({ dropped }, "Request log entries dropped while the database was unreachable");
        dropped = 0;
      }
    } finally {
      writing = undefined;
      if (buffer.length > 0) timer ??= setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS).unref();
    }
  })();
  return writing;
}

/** For a web process's background services: nothing to start; at stop, the buffer is written. */
export function startRequestLogWriter(): Promise<() => Promise<void>> {
  return Promise.resolve(async () => {
    await writing;
    while (buffer.length > 0) {
      const before = buffer.length;
      await flushRequestLog();
      if (buffer.length >= before) break;
    }
  });
}
