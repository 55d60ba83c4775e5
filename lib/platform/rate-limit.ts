import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";

/** The window the limit is stated over: N requests per minute. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request would be accepted (0 when allowed). */
  retryAfterSeconds: number;
};

/**
 * GCRA over one row per key (`count_request`, db/functions/rate-limit.sql), so any number of server processes
 * share the count: a burst of the limit, then one request per interval (period / limit). Yields `allowed` and
 * `ahead_seconds` (how far the key's theoretical arrival time is ahead of now).
 */
export function countRequest(key: SQL, perPeriod: SQL, periodSeconds = RATE_LIMIT_PERIOD_SECONDS): SQL {
  return sql`count_request(${key}, ${perPeriod}, ${periodSeconds}::float8)`;
}

/** The same count as a statement of its own: one request against `key`, `perPeriod` per `periodSeconds`. */
export async function countRequestAlone(
  db: Executor,
  key: string,
  perPeriod: number,
  periodSeconds = RATE_LIMIT_PERIOD_SECONDS,
): Promise<{ allowed: boolean; ahead_seconds: number }> {
  const [row] = await selectRows<{ allowed: boolean; ahead_seconds: number }>(
    db,
    sql`select allowed, ahead_seconds from ${countRequest(sql`${key}::text`, sql`${perPeriod}::int`, periodSeconds)}`,
  );
  return row!;
}

export function rateLimitDecision(
  limit: number,
  allowed: boolean,
  aheadSeconds: number,
  periodSeconds = RATE_LIMIT_PERIOD_SECONDS,
): RateLimitDecision {
  const interval = periodSeconds / limit;
  if (!allowed) {
    return {
      allowed,
      limit,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil(aheadSeconds + interval - periodSeconds)),
    };
  }
  // tat is stored to the millisecond, so it can read up to half a millisecond late: allow for that.
  const remaining = Math.floor((periodSeconds - aheadSeconds + 0.001) / interval);
  return { allowed, limit, remaining: Math.max(0, Math.min(limit - 1, remaining)), retryAfterSeconds: 0 };
}

/**
 * Counts one request against `key`, `limit` per `periodSeconds` (a minute unless said): requests that carry no
 * valid token, per client IP; a checkout's pay attempts, per client IP and hour.
 */
export async function consumeRateLimit(
  db: Executor,
  key: string,
  limit: number,
  periodSeconds = RATE_LIMIT_PERIOD_SECONDS,
): Promise<RateLimitDecision> {
  const row = await countRequestAlone(db, key, limit, periodSeconds);
  return rateLimitDecision(limit, row.allowed, Number(row.ahead_seconds), periodSeconds);
}

/**
 * Whether one more request against `key` would be accepted now, counting nothing: for limits that count only
 * some requests (a checkout counts refused cards), but refuse every request once reached.
 */
export async function peekRateLimit(
  db: Executor,
  key: string,
  limit: number,
  periodSeconds = RATE_LIMIT_PERIOD_SECONDS,
): Promise<RateLimitDecision> {
  const [row] = await selectRows<{ ahead_seconds: number }>(
    db,
    sql`select extract(epoch from (tat - (clock_timestamp() at time zone 'UTC')))::float8 as ahead_seconds
        from rate_limit_buckets where key = ${key}`,
  );
  const aheadSeconds = Math.max(0, Number(row?.ahead_seconds ?? 0));
  const allowed = aheadSeconds + periodSeconds / limit <= periodSeconds;
  return rateLimitDecision(limit, allowed, aheadSeconds, periodSeconds);
}
