import "server-only";
import { sql } from "drizzle-orm";
import { getDb, selectRows, type Executor } from "@/db/client";
import { periodicService } from "./periodic-service";

/**
 * Tables that would otherwise only grow, and how long a row is worth keeping. Each cut-off is past the point
 * where the row can change an answer: an idempotency key is honoured for 24 hours (the contract), a login
 * success marks a known address for 30 days (failures count for 15 minutes), a sign-up counts for an hour
 * (kept a day for investigation), a rate-limit bucket whose `tat` is an hour old has refilled completely.
 */
export const RETENTION = [
  { table: "idempotency_keys", column: "created_at", keep: "24 hours" },
  { table: "login_attempts", column: "created_at", keep: "30 days" },
  { table: "signup_attempts", column: "created_at", keep: "1 day" },
  { table: "rate_limit_buckets", column: "tat", keep: "1 hour" },
] as const;

export type PruneCounts = Record<(typeof RETENTION)[number]["table"], number>;

/**
 * Deletes expired rows in batches (short transactions, short locks) until none is left; returns how many went
 * per table. Safe to run from several workers at once: a row deleted by one is simply not found by another.
 */
export async function pruneExpiredRows(db: Executor, batchSize = 1000): Promise<PruneCounts> {
  const counts = {} as PruneCounts;
  for (const { table, column, keep } of RETENTION) {
    counts[table] = 0;
    for (;;) {
      const [row] = await selectRows<{ deleted: number | string }>(
        db,
        sql`with deleted as (
              delete from ${sql.identifier(table)}
              where ctid = any(array(
                select ctid from ${sql.identifier(table)}
                where ${sql.identifier(column)} < now() - ${keep}::interval
                limit ${batchSize}))
              returning 1)
            select count(*) as deleted from deleted`,
      );
      const deleted = Number(row?.deleted ?? 0);
      counts[table] += deleted;
      if (deleted < batchSize) break;
    }
  }
  return counts;
}

/** The worker's pruning loop: once at start, then every five minutes. */
export const startPruner = periodicService("Pruning", 5 * 60 * 1000, async () => {
  await pruneExpiredRows(getDb());
  return false;
});
