import "server-only";
import { sql } from "drizzle-orm";
import { getBackgroundDb, selectRows, type Database } from "@/db/client";
import { isDatabaseUnavailable } from "@/db/errors";
import { writeCreatingPartitions } from "@/lib/platform/history-partitions";
import { logger } from "@/lib/platform/logger";
import { requestLogDropped } from "@/lib/platform/metrics";

/**
 * The API request log's writer. A request only appends its entry to this process's buffer; the buffer is
 * written in one insert every second, or at once in batches of 500 while that many wait, one write at a
 * time, so no request waits for its log row.
 * The cost: a process that crashes loses its last second of log entries (never a payment). A stopping
 * process writes what it holds first. A batch that fails is written again, alone and before anything newer,
 * each second: for as long as the database is unreachable, and 3 times for any other error (one entry the
 * database refuses must not stop the log). What is given up on is counted in
 * `api_request_log_dropped_total`, by reason.
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
/**
 * Beyond this many waiting entries (the batch being written included), new ones are dropped, not hoarded:
 * several seconds of a process at full load (about 2,900 requests/s), which a database restart fits in.
 */
const MAX_BUFFERED = 20_000;
/** Tries of a batch the database answers with an error; while it is unreachable the tries do not count. */
const MAX_ATTEMPTS = 3;
const MAX_BODY_CHARS = 4096;
const MAX_PATH_CHARS = 2048;

/** Entries as JSON text: one flat string each, cheap for the garbage collector while they wait. */
const buffer: string[] = [];
/**
 * The batch being written, or, after its write failed, to be written again before anything newer (entries
 * keep their order); `attempts` counts the failures that count (see MAX_ATTEMPTS).
 */
let held: { entries: string[]; attempts: number } | undefined;
let timer: NodeJS.Timeout | undefined;
/** The write under way, if any: one at a time, and a request never queues another behind it. */
let writing: Promise<void> | undefined;
/** Entries dropped because the buffer was full, since the last warning about them. */
let dropped = 0;

type DropReason = "buffer_full" | "refused" | "stopped";
for (const reason of ["buffer_full", "refused", "stopped"] satisfies DropReason[])
  requestLogDropped.inc({ reason }, 0);

const waitingEntries = () => buffer.length + (held?.entries.length ?? 0);

export function recordApiRequest(entry: RequestLogEntry): void {
  if (waitingEntries() >= MAX_BUFFERED) {
    dropped += 1;
    requestLogDropped.inc({ reason: "buffer_full" });
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
  // After a failure the timer's tick retries: not one try per request while the database is down.
  if (writing || held) return;
  if (buffer.length >= FLUSH_SIZE) void flushRequestLog();
  else timer ??= setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS).unref();
}

/**
 * One statement with one JSON parameter, whatever the batch size: the same text every time (prepared once
 * per connection), and no per-row SQL to build in this process, which also serves the requests. It goes on
 * the background connection, so no request's statement waits behind it.
 */
async function write(entries: string[]): Promise<void> {
  const db = getBackgroundDb();
  await writeCreatingPartitions(
    db,
    "api_request_logs",
    () => entryTimes(entries),
    () => insertEntries(db, entries),
  );
}

const entryTimes = (entries: string[]) =>
  entries.map((entry) => new Date((JSON.parse(entry) as { c: number }).c));

function insertEntries(db: Database, entries: string[]) {
  return selectRows(
    db,
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
 * the next tick of the timer. A failed batch is kept aside and tried again at the next tick (see the top).
 */
export function flushRequestLog(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  if (writing) return writing;
  // With nothing to write the function below would finish before `writing` is assigned, and leave it set.
  if (!held && buffer.length === 0) return Promise.resolve();
  writing = (async () => {
    try {
      for (;;) {
        const batch = held ?? { entries: buffer.splice(0, FLUSH_SIZE), attempts: 0 };
        if (batch.entries.length === 0) break;
        held = batch;
        try {
          await write(batch.entries);
          held = undefined;
        } catch (error) {
          const unreachable = isDatabaseUnavailable(error);
          if (!unreachable) batch.attempts += 1;
          const givenUp = batch.attempts >= MAX_ATTEMPTS;
          if (givenUp) {
            requestLogDropped.inc({ reason: "refused" }, batch.entries.length);
            held = undefined;
          }
          logger.warn(
            {
              // The logger's serializer keeps the statement's parameters (the entries) out.
              err: error,
              entries: batch.entries.length,
              ...(unreachable ? {} : { attempts: batch.attempts }),
              waiting: buffer.length,
            },
            givenUp
              ? "Request log batch dropped: the database refused it 3 times"
              : "Request log not written",
          );
          break;
        }
        if (buffer.length < FLUSH_SIZE) break;
      }
      if (dropped > 0) {
        logger.warn({ dropped }, "Request log entries dropped while the database was unreachable");
        dropped = 0;
      }
    } finally {
      writing = undefined;
      if (buffer.length > 0 || held)
        timer ??= setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS).unref();
    }
  })();
  return writing;
}

/**
 * For a web process's background services: nothing to start; at stop, the buffer is written, as long as
 * each write makes progress. What a database that is down at that moment leaves unwritten is dropped, and
 * counted.
 */
export function startRequestLogWriter(): Promise<() => Promise<void>> {
  return Promise.resolve(async () => {
    await writing;
    while (waitingEntries() > 0) {
      const before = waitingEntries();
      await flushRequestLog();
      if (waitingEntries() >= before) break;
    }
    const left = waitingEntries();
    if (left > 0) {
      buffer.length = 0;
      held = undefined;
      requestLogDropped.inc({ reason: "stopped" }, left);
      logger.warn({ dropped: left }, "Request log entries not written before the process stopped");
    }
  });
}
