import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/logger";
import { tokenIsLive } from "./authenticate";

/** The Overview's 429 notice stays this long after a key's latest 429. */
const NOTICE_LASTS = "24 hours";
/** A client that keeps going past its limit updates its key at most this often. */
const NOTE_EVERY_MS = 60_000;

/**
 * When this process last recorded each token's 429: a client that keeps going past its limit gets its next
 * 429s without a statement each. What was recorded lives in the database; this only skips repeating it.
 */
const noted = new Map<number, number>();

/**
 * Records a token's 429 for the Overview and the Developers page: its first ever, its latest, and where the
 * current run began (after 24 hours without one, or under another limit). One conditional update, after the
 * answer and outside the request's time, at most once a minute; a failure is logged and tried at the next 429.
 */
export function noteRateLimited(db: Executor, merchantId: number, tokenId: number, perMinute: number): void {
  const now = Date.now();
  if (now - (noted.get(tokenId) ?? 0) < NOTE_EVERY_MS) return;
  noted.set(tokenId, now);
  selectRows(
    db,
    // The clock is read once, in FROM: Citus allows no function but an immutable one in CASE or COALESCE.
    sql`update api_tokens set
          first_limited_at = coalesce(first_limited_at, clock.now),
          limited_since = case
            when last_limited_at is null or last_limited_at < clock.notice_from
              or limited_per_minute is distinct from ${perMinute} then clock.now
            else limited_since end,
          last_limited_at = clock.now,
          limited_per_minute = ${perMinute}
        from (select now() as now, now() - ${NOTICE_LASTS}::interval as notice_from) clock
        where id = ${tokenId} and merchant_id = ${merchantId}
          and (last_limited_at is null or last_limited_at < now() - interval '1 minute'
            or limited_per_minute is distinct from ${perMinute})`,
  ).catch((error: unknown) => {
    noted.delete(tokenId);
    logger.warn({ err: error }, "Could not record a token's 429");
  });
}

export type RateLimitNotice = { tokenId: number; name: string; displayHint: string; limitedSince: Date };

/**
 * The Overview's notice: the merchant's live key whose run of 429s began first, while that run lasts (a 429
 * in the last 24 hours, under a limit no lower than the merchant's today) and no member dismissed it.
 */
export async function rateLimitNotice(
  db: Executor,
  merchantId: number,
  defaultPerMinute: number,
): Promise<RateLimitNotice | null> {
  const [row] = await selectRows<{
    id: number | string;
    name: string;
    display_hint: string;
    limited_since: Date | string;
  }>(
    db,
    sql`select t.id, t.name, t.display_hint, t.limited_since
        from api_tokens t join merchants m on m.id = t.merchant_id
        where t.merchant_id = ${merchantId} and ${tokenIsLive(sql`t`)}
          and t.last_limited_at > now() - ${NOTICE_LASTS}::interval
          and t.limited_per_minute >= coalesce(m.rate_limit_per_minute, ${defaultPerMinute})
          and (t.limit_notice_dismissed_at is null or t.limit_notice_dismissed_at < t.limited_since)
        order by t.limited_since limit 1`,
  );
  return row
    ? {
        tokenId: Number(row.id),
        name: row.name,
        displayHint: row.display_hint,
        limitedSince: new Date(row.limited_since),
      }
    : null;
}

/** Hides a key's 429 notice until its next run of 429s. */
export async function dismissRateLimitNotice(
  db: Executor,
  merchantId: number,
  tokenId: number,
): Promise<void> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`update api_tokens set limit_notice_dismissed_at = now()
        where id = ${tokenId} and merchant_id = ${merchantId} returning id`,
  );
  if (rows.length === 0) throw new DomainError("not_found", `API key ${tokenId} was not found.`);
}
