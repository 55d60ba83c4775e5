import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, selectRows, type Executor } from "@/db/client";
import { logger } from "@/lib/platform/logger";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { liveTokenIds } from "@/lib/tokens/authenticate";
import { webhookBody } from "@/lib/webhooks/send";

/** An event as a stream sends it: `body` is the exact webhook body. */
export type StreamEvent = { id: string; merchantId: number; type: string; createdAtMs: number; body: string };

export type StreamSubscriber = {
  merchantId: number;
  /** The API token the stream was opened with: events go out only while it still authenticates. */
  tokenId: number;
  deliver: (event: StreamEvent) => void;
  /** The token was revoked, expired or deleted: the stream ends without the events in hand. */
  revoked: () => void;
};

/**
 * How often each process reads new events, and how far back each read looks again: `created_at` is the
 * transaction's start, so an event can commit after a later-stamped one. Reads re-cover the last 5 s (minus
 * what was already seen), which catches any event whose transaction commits within 5 s of starting; every
 * event-writing statement is one short transaction.
 */
const POLL_MS = 100;
const LOOK_BACK_MS = 5000;
/**
 * After a read failed (the database restarted, failed over or switched over), transactions that began before
 * it can commit many seconds late (a commit waits for the synchronous standby): for a minute, reads look
 * 30 s back instead of 5.
 */
const DISRUPTED_LOOK_BACK_MS = 30_000;
const DISRUPTION_WINDOW_MS = 60_000;
/** More than this per read is taken over the next reads (100 ms apart). */
const BATCH = 1000;

export type StreamEventRow = {
  id: string;
  merchant_id: number | string;
  type: string;
  data: unknown;
  created_at: Date | string;
};

/** An `events` row as a stream sends it (the live reader and a stream's replay read the same columns). */
export function toStreamEvent(row: StreamEventRow): StreamEvent {
  return {
    id: row.id,
    merchantId: Number(row.merchant_id),
    type: row.type,
    createdAtMs: Date.parse(isoTimestamp(row.created_at)),
    body: webhookBody(row.type, typeof row.data === "string" ? JSON.parse(row.data) : row.data),
  };
}

/**
 * One reader per process for every open stream: each read is one indexed range over the last seconds of
 * `events` for the merchants with a stream here, so the cost does not grow with the number of streams, and an
 * event committed by any process (or behind PgBouncer, where LISTEN is unavailable) reaches every process's
 * streams within about POLL_MS.
 */
class EventStreamHub {
  private readonly subscribers = new Set<StreamSubscriber>();
  /** Events already dispatched, by id, with their time: the look-back skips them. */
  private readonly seen = new Map<string, number>();
  private newestMs: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  private disruptedUntilMs = 0;

  private lookBackMs(): number {
    return Date.now() < this.disruptedUntilMs ? DISRUPTED_LOOK_BACK_MS : LOOK_BACK_MS;
  }

  subscribe(subscriber: StreamSubscriber): () => void {
    this.subscribers.add(subscriber);
    if (!this.timer) this.timer = setInterval(() => void this.read(), POLL_MS);
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        this.seen.clear();
        this.newestMs = null;
      }
    };
  }

  /** Ends the streams whose token no longer authenticates; the rest, which may be sent to. */
  private async dropRevoked(): Promise<Set<StreamSubscriber>> {
    const live = await liveTokenIds(getDb(), [...new Set([...this.subscribers].map((each) => each.tokenId))]);
    for (const subscriber of this.subscribers) if (!live.has(subscriber.tokenId)) subscriber.revoked();
    return new Set([...this.subscribers].filter((subscriber) => live.has(subscriber.tokenId)));
  }

  private async read(): Promise<void> {
    if (this.reading || this.subscribers.size === 0) return;
    this.reading = true;
    try {
      const merchants = [...new Set([...this.subscribers].map((subscriber) => subscriber.merchantId))];
      const lookBackMs = this.lookBackMs();
      const since =
        this.newestMs === null
          ? sql`now() - ${lookBackMs}::int * interval '1 millisecond'`
          : sql`${new Date(this.newestMs - lookBackMs).toISOString()}::timestamptz`;
      const seenIds = [...this.seen.keys()];
      const rows = await readStreamEvents(getDb(), merchants, since, seenIds);
      // Checked after the events were read: an event written after a revocation committed is never sent.
      const live = rows.length > 0 ? await this.dropRevoked() : this.subscribers;
      for (const row of rows) {
        const event = toStreamEvent(row);
        this.seen.set(event.id, event.createdAtMs);
        this.newestMs = Math.max(this.newestMs ?? 0, event.createdAtMs);
        for (const subscriber of live)
          if (subscriber.merchantId === event.merchantId) subscriber.deliver(event);
      }
      if (this.newestMs === null) return;
      const horizon = this.newestMs - lookBackMs;
      for (const [id, createdAtMs] of this.seen) if (createdAtMs <= horizon) this.seen.delete(id);
    } catch (error) {
      // The next read tries again; a stream loses nothing (the look-back covers the gap).
      this.disruptedUntilMs = Date.now() + DISRUPTION_WINDOW_MS;
      logger.warn({ err: error }, "Event stream read failed");
    } finally {
      this.reading = false;
    }
  }
}

export const eventStreamHub = new EventStreamHub();

/**
 * The hub's one read per poll: these merchants' events since `since` not seen yet, oldest first. On Citus it
 * reaches the shards of those merchants only (one, for one merchant's streams).
 */
export function readStreamEvents(
  db: Executor,
  merchants: number[],
  since: SQL,
  seenIds: string[],
): Promise<StreamEventRow[]> {
  return selectRows<StreamEventRow>(
    db,
    sql`select id, merchant_id, type, data, created_at from events
        where created_at > ${since}
          and merchant_id = any(string_to_array(${merchants.join(",")}, ',')::bigint[])
          and not (id = any(string_to_array(${seenIds.join(",")}, ',')))
        order by created_at, id limit ${BATCH}`,
  );
}
