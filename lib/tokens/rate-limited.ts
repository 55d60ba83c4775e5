import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { logger } from "@/lib/platform/logger";
import { tokenIsLive } from "./authenticate";

/**
 * Tokens this process has already marked: a client that keeps going past its limit gets its next 429s
 * without a statement each. What was marked lives in the database; this only skips repeating it.
 */
const marked = new Set<number>();

/**
 * Records a token's first 429 (the Overview and the Developers page show it): one conditional update, after
 * the answer and outside the request's time; a failure is logged and tried again at the next 429.
 */
export function noteRateLimited(db: Executor, merchantId: number, tokenId: number): void {
  if (marked.has(tokenId)) return;
  marked.add(tokenId);
  selectRows(
    db,
    sql`update api_tokens set first_limited_at = now()
        where id = ${tokenId} and merchant_id = ${merchantId} and first_limited_at is null`,
  ).catch((error: unknown) => {
    marked.delete(tokenId);
    logger.warn({ err: error }, "Could not record a token's first 429");
  });
}

export type FirstRateLimit = { name: string; displayHint: string; firstLimitedAt: Date };

/** The merchant's first 429 among its active keys, if any: which key, and when. */
export async function firstRateLimit(db: Executor, merchantId: number): Promise<FirstRateLimit | null> {
  const [row] = await selectRows<{ name: string; display_hint: string; first_limited_at: Date | string }>(
    db,
    sql`select t.name, t.display_hint, t.first_limited_at from api_tokens t
        where t.merchant_id = ${merchantId} and t.first_limited_at is not null and ${tokenIsLive(sql`t`)}
        order by t.first_limited_at limit 1`,
  );
  return row
    ? { name: row.name, displayHint: row.display_hint, firstLimitedAt: new Date(row.first_limited_at) }
    : null;
}
