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
 * GCRA over one row per key, in one statement, so any number of server processes share the count:
 * each accepted request moves the key's "theoretical arrival time" (tat) one interval (period / limit)
 * ahead; a request is accepted while tat + interval stays within one period of now. That allows a burst of
 * `limit` and then one request per interval, never the 2x burst a fixed window allows at its boundary.
 *
 * `source` must be a select yielding `bucket_key` and `per_period` (the limit over `periodSeconds`, a minute
 * unless said); the statement returns `allowed` and `ahead_seconds` (tat - now) for the row it touched.
 */
export function gcraUpsert(source: SQL, periodSeconds = RATE_LIMIT_PERIOD_SECONDS): SQL {
  // clock_timestamp(), read after the row lock is held: a request that waited for a concurrent one must not
  // be judged by the time it started waiting (now() is the transaction's start).
  return sql`
    insert into rate_limit_buckets as b (key, tat, allowed, emission_interval_seconds)
    select s.bucket_key, clock_timestamp() + make_interval(secs => ${periodSeconds}::float8 / s.per_period), true,
           ${periodSeconds}::float8 / s.per_period
    from (${source}) s
    on conflict (key) do update set (allowed, tat, emission_interval_seconds) = (
      select decision.ok, case when decision.ok then decision.next_tat else b.tat end, excluded.emission_interval_seconds
      from (
        select next_tat, next_tat <= clock.at + make_interval(secs => ${periodSeconds}) as ok
        from (select clock_timestamp() as at) clock,
             lateral (select greatest(b.tat, clock.at) + make_interval(secs => excluded.emission_interval_seconds) as next_tat) candidate
      ) decision
    )
    returning b.allowed, extract(epoch from (b.tat - clock_timestamp()))::float8 as ahead_seconds`;
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
  const [row] = await selectRows<{ allowed: boolean; ahead_seconds: number }>(
    db,
    gcraUpsert(sql`select ${key}::text as bucket_key, ${limit}::int as per_period`, periodSeconds),
  );
  return rateLimitDecision(limit, row!.allowed, Number(row!.ahead_seconds), periodSeconds);
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
    sql`select extract(epoch from (tat - clock_timestamp()))::float8 as ahead_seconds
        from rate_limit_buckets where key = ${key}`,
  );
  const aheadSeconds = Math.max(0, Number(row?.ahead_seconds ?? 0));
  const allowed = aheadSeconds + periodSeconds / limit <= periodSeconds;
  return rateLimitDecision(limit, allowed, aheadSeconds, periodSeconds);
}
