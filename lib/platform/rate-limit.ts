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
 * GCRA over one row per key, so any number of server processes share the count: each accepted request moves the
 * key's "theoretical arrival time" (tat) one interval (period / limit) ahead, and a request is accepted while
 * tat + interval stays within one period of now. That allows a burst of the limit, then one request per
 * interval, never the 2x burst a fixed window allows at its boundary. One statement: the key's row is made, or
 * moved on under its row lock. The clock is the statement's (`statement_timestamp()`), read into the row
 * offered (`excluded.tat` = now + interval, `excluded.counted_at` = now), so the update is immutable over the
 * row and `excluded`, as Citus asks of a DO UPDATE on its table (db/citus.ts), and the RETURNING gives how far
 * tat is ahead of that same now (`ahead_seconds`) from the row alone (Citus allows no volatile function there).
 * A plain INSERT … RETURNING: Citus sends it to the coordinator's table as one statement, where a CTE around
 * it was run in steps through an intermediate result (docs/scaling.md, "Per node"). In the statement itself,
 * not a function: a PL/pgSQL call on every request made the token check's statement a sixth slower
 * (docs/benchmarks-log.md, issue 71).
 *
 * `key` and `perPeriod` are values, or columns of `from` (the token check counts the token it finds; Citus
 * takes no parameters in an INSERT … SELECT, so a count alone is an INSERT … VALUES).
 */
export function countRequest(
  { key, perPeriod, from }: { key: SQL; perPeriod: SQL; from?: SQL },
  periodSeconds = RATE_LIMIT_PERIOD_SECONDS,
): SQL {
  const period = sql.raw(`${Number(periodSeconds)}::float8`);
  const now = sql`(statement_timestamp() at time zone 'UTC')`;
  const offered = sql`${key}, ${now} + make_interval(secs => ${period} / ${perPeriod}), true,
                      ${period} / ${perPeriod}, ${now}`;
  const interval = sql`make_interval(secs => excluded.emission_interval_seconds)`;
  // Where the tat goes if this request is accepted: an interval past the later of the row's tat and now.
  const next = sql`greatest(b.tat + ${interval}, excluded.tat)`;
  const accepted = sql`${next} <= excluded.tat + make_interval(secs => ${period} - excluded.emission_interval_seconds)`;
  return sql`
    insert into rate_limit_buckets as b (key, tat, allowed, emission_interval_seconds, counted_at)
    ${from ? sql`select ${offered} from ${from}` : sql`values (${offered})`}
    on conflict (key) do update
      set allowed = ${accepted},
          tat = case when ${accepted} then ${next} else b.tat end,
          emission_interval_seconds = excluded.emission_interval_seconds,
          counted_at = excluded.counted_at
    returning b.allowed, extract(epoch from b.tat - b.counted_at)::float8 as ahead_seconds`;
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
    countRequest({ key: sql`${key}::text`, perPeriod: sql`${perPeriod}::int` }, periodSeconds),
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
