import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, selectRows, type Executor } from "@/db/client";
import { logger } from "@/lib/platform/logger";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { messages } from "@/lib/platform/validation";
import { liveTokenIds, tokenIsLive } from "@/lib/tokens/authenticate";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import { eventStreamHub, toStreamEvent, type StreamEvent, type StreamEventRow } from "./stream-hub";

/** A comment line this often keeps proxies from closing an idle stream, and renews the stream's lease. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** A lease not renewed for this long (a process that died) stops counting against the token's cap. */
const LEASE_SECONDS = 45;
/** Replay reads this many events at a time. */
const REPLAY_BATCH = 500;
/** A client this far behind (bytes buffered) is cut off; it reconnects with Last-Event-ID and loses nothing. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Sent ids kept to drop the overlap between replay and live events. */
const SENT_MEMORY_MS = 60_000;

const EVENT_ID = /^evt_[\w-]{1,64}$/;

/** `types=a,b` and `after` (or the Last-Event-ID header): 422 in Laravel's words for a bad value. */
export const eventStreamQuerySchema = z.object({
  types: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return null;
      const types = value.split(",").map((type) => type.trim());
      if (!types.every((type) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))) {
        ctx.addIssue({ code: "custom", message: messages.in("types") });
        return z.NEVER;
      }
      return new Set(types);
    })
    .meta({ type: "string", examples: ["payment.completed,refund.succeeded"] })
    .describe("Comma-separated event types to receive; all of them when left out."),
  after: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === "" || EVENT_ID.test(value), {
      error: "The last event id must be an event id (evt_…).",
    })
    .transform((value) => value || null)
    .describe("Replay from after this event id (as the Last-Event-ID header does; the header wins)."),
});
export type EventStreamQuery = z.output<typeof eventStreamQuerySchema>;

/** Where a replay starts: the event named by Last-Event-ID. */
type Cursor = { createdAt: string; id: string };

export type OpenedStream =
  | { kind: "open"; leaseId: number; tokenId: number; openedAt: string; cursor: Cursor | null }
  | { kind: "unknown_cursor" }
  | { kind: "busy"; cap: number };

/**
 * Checks a stream may open: the Last-Event-ID is one of this merchant's retained events, and the token has
 * fewer than `cap` streams open on any process (counted under the token's row lock, so concurrent opens
 * cannot pass it). Takes the lease the stream renews while open.
 */
export async function openEventStream(
  db: Executor,
  options: { merchantId: number; tokenId: number; after: string | null; cap: number },
): Promise<OpenedStream> {
  let cursor: Cursor | null = null;
  if (options.after !== null) {
    const [row] = await selectRows<{ created_at: Date | string }>(
      db,
      sql`select created_at from events
          where id = ${options.after} and merchant_id = ${options.merchantId}`,
    );
    if (!row) return { kind: "unknown_cursor" };
    cursor = { createdAt: isoTimestamp(row.created_at), id: options.after };
  }
  return db.transaction(async (tx) => {
    await selectRows(tx, sql`select id from api_tokens where id = ${options.tokenId} for update`);
    const [open] = await selectRows<{ count: number | string }>(
      tx,
      sql`select count(*) as count from event_stream_leases
          where token_id = ${options.tokenId} and expires_at > now()`,
    );
    if (Number(open!.count) >= options.cap) return { kind: "busy" as const, cap: options.cap };
    await selectRows(
      tx,
      sql`delete from event_stream_leases where token_id = ${options.tokenId} and expires_at <= now()`,
    );
    const [lease] = await selectRows<{ id: number | string; opened_at: Date | string }>(
      tx,
      sql`insert into event_stream_leases (token_id, expires_at)
          values (${options.tokenId}, now() + ${LEASE_SECONDS}::int * interval '1 second')
          returning id, created_at as opened_at`,
    );
    return {
      kind: "open" as const,
      leaseId: Number(lease!.id),
      tokenId: options.tokenId,
      openedAt: isoTimestamp(lease!.opened_at),
      cursor,
    };
  });
}

/**
 * Renews a stream's lease while its token still authenticates; false when the token was revoked, expired or
 * deleted (with its merchant) since: the stream ends, within one heartbeat even when no event comes.
 */
async function renewLease(db: Executor, tokenId: number, leaseId: number): Promise<boolean> {
  const renewed = await selectRows(
    db,
    sql`update event_stream_leases l
        set expires_at = now() + ${LEASE_SECONDS}::int * interval '1 second'
        where l.token_id = ${tokenId} and l.id = ${leaseId}
          and exists (select 1 from api_tokens t where t.id = l.token_id and ${tokenIsLive(sql`t`)})
        returning l.id`,
  );
  return renewed.length > 0;
}

/** Where a stream writes: the HTTP response, whichever server carries it. */
export type EventStreamSink = {
  write(chunk: string): void;
  end(): void;
  onClose(listener: () => void): void;
  bufferedBytes(): number;
};

/** Ends every stream this process serves: a stopping server, so its connections can close. */
const openStreams = new Set<() => void>();
export function closeEventStreams(): void {
  for (const close of [...openStreams]) close();
}

function frame(event: { id: string; type: string; body: string }): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.body}\n\n`;
}

/**
 * Runs an opened stream until the client goes: every retained event after the cursor in order (when there is
 * one), then live events as the process's reader finds them, each once; a heartbeat comment and a lease
 * renewal every STREAM_HEARTBEAT_MS.
 */
export function runEventStream(
  stream: Extract<OpenedStream, { kind: "open" }>,
  options: { merchantId: number; types: Set<string> | null },
  sink: EventStreamSink,
): void {
  const db = getDb();
  const openedAtMs = new Date(stream.openedAt).getTime();
  const cursorMs = stream.cursor ? new Date(stream.cursor.createdAt).getTime() : null;
  /** Live events the client already has (at or before its cursor) or from before the stream opened. */
  const isOld = (event: StreamEvent) =>
    cursorMs === null
      ? event.createdAtMs < openedAtMs
      : event.createdAtMs < cursorMs || (event.createdAtMs === cursorMs && event.id <= stream.cursor!.id);
  const sent = new Map<string, number>();
  const pending: StreamEvent[] = [];
  let replaying = stream.cursor !== null;
  let closed = false;

  const send = (event: StreamEvent) => {
    if (closed || sent.has(event.id)) return;
    if (options.types && !options.types.has(event.type)) return;
    sent.set(event.id, Date.now());
    sink.write(frame(event));
    if (sink.bufferedBytes() > MAX_BUFFERED_BYTES) close();
  };
  const unsubscribe = eventStreamHub.subscribe({
    merchantId: options.merchantId,
    tokenId: stream.tokenId,
    revoked: () => close(),
    deliver: (event) => {
      // The reader looks a few seconds back: what this client already has, or what came before it asked, stays out.
      if (isOld(event)) return;
      if (replaying) pending.push(event);
      else send(event);
    },
  });
  const heartbeat = setInterval(() => {
    sink.write(": heartbeat\n\n");
    const cutoff = Date.now() - SENT_MEMORY_MS;
    for (const [id, at] of sent) if (at < cutoff) sent.delete(id);
    renewLease(db, stream.tokenId, stream.leaseId)
      .then((renewed) => {
        if (!renewed) close();
      })
      .catch((error: unknown) => logger.warn({ err: error }, "Event stream lease renewal failed"));
  }, STREAM_HEARTBEAT_MS);

  function close() {
    if (closed) return;
    closed = true;
    openStreams.delete(close);
    clearInterval(heartbeat);
    unsubscribe();
    // Released before the response ends, so a client that reconnects at once finds its slot free.
    void selectRows(
      db,
      sql`delete from event_stream_leases where token_id = ${stream.tokenId} and id = ${stream.leaseId}`,
    ).catch((error: unknown) => logger.warn({ err: error }, "Event stream lease release failed"));
    sink.end();
  }
  openStreams.add(close);
  sink.onClose(close);
  // The client retries after 2 s, and the headers go out at once.
  sink.write("retry: 2000\n: stream open\n\n");

  async function replay(cursor: Cursor) {
    const ofTypes = options.types
      ? sql`and type = any(string_to_array(${[...options.types].join(",")}, ','))`
      : sql``;
    let after = cursor;
    for (;;) {
      const rows = await selectRows<StreamEventRow>(
        db,
        sql`select id, merchant_id, type, data, created_at from events
            where merchant_id = ${options.merchantId} ${ofTypes}
              and (created_at, id) > (${after.createdAt}::timestamptz, ${after.id})
            order by created_at, id limit ${REPLAY_BATCH}`,
      );
      // A replay can run for a while: each batch goes out only while the token still authenticates.
      if (rows.length > 0 && !(await liveTokenIds(db, [stream.tokenId])).has(stream.tokenId)) return close();
      for (const row of rows) send(toStreamEvent(row));
      if (closed || rows.length < REPLAY_BATCH) return;
      after = { createdAt: isoTimestamp(rows.at(-1)!.created_at), id: rows.at(-1)!.id };
    }
  }
  if (stream.cursor) {
    replay(stream.cursor)
      .then(() => {
        replaying = false;
        pending.sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : 1));
        for (const event of pending.splice(0)) send(event);
      })
      .catch((error: unknown) => {
        // The client reconnects with the last id it got and the replay resumes from there.
        logger.warn({ err: error }, "Event stream replay failed");
        close();
      });
  }
}
