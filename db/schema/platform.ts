// What the platform keeps for itself: rate-limit counters and each merchant's last write position.
import { bigint, boolean, customType, doublePrecision, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { merchants } from "./accounts";
import { at } from "./columns";

/**
 * UNLOGGED (migration 0006; drizzle cannot declare it): counters skip the WAL, so an API read never waits for
 * a disk flush. A crash empties the table, which only forgives the current rate-limit window.
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  /** What is limited, e.g. `token:42`. */
  key: text("key").primaryKey(),
  /**
   * GCRA "theoretical arrival time" (UTC, without a zone: its arithmetic is immutable, which Citus requires of
   * an UPDATE's expressions): a request is allowed while tat + interval - now <= period.
   */
  tat: timestamp("tat", { precision: 3 }).notNull(),
  /** Whether the latest request was allowed (returned by the same statement that updates tat). */
  allowed: boolean("allowed").notNull(),
  /** Seconds between requests at the steady rate (period / limit), as of the latest request. */
  emissionIntervalSeconds: doublePrecision("emission_interval_seconds").notNull().default(2),
  /**
   * The clock when the latest request was counted (UTC, as `tat`; to the microsecond, so the time left reads
   * as exactly as before), so the count's own RETURNING gives how far `tat` is ahead of it without reading the
   * clock again (Citus allows no volatile function there).
   */
  countedAt: timestamp("counted_at"),
});

/** PostgreSQL's WAL position type: compared and ordered by the database, read as text ("16/B374D848"). */
const pgLsn = customType<{ data: string }>({ dataType: () => "pg_lsn" });

/**
 * UNLOGGED (migration 0023; drizzle cannot declare it): where each merchant's last write left the primary's
 * WAL, so its reads wait for a replica that has replayed that far (db/replicas.ts). Written only when read
 * replicas are configured; a crash empties it, which only sends reads to replicas a moment early.
 */
export const merchantWritePositions = pgTable("merchant_write_positions", {
  merchantId: bigint("merchant_id", { mode: "number" }).primaryKey(),
  lsn: pgLsn("lsn").notNull(),
});

/**
 * Data migrations run after the schema's, in short transactions of their own (db/backfills.ts), so that no
 * lock is held across a whole table: one row per step, with how far it has got. Written by migrations only.
 */
export const backfills = pgTable("backfills", {
  /** The step, run in name order: `currency.1.payments`, … */
  name: text("name").primaryKey(),
  /** Where the next batch starts: the step's own key, as text ('' before the first batch). */
  position: text("position").notNull().default(""),
  /** The last id the step covers (the table's highest when the migration ran); '' when it walks keys. */
  through: text("through").notNull().default(""),
  doneAt: at("done_at"),
});

/**
 * The merchants whose stored rows take a currency other than the columns' default `USD` (migration 0033:
 * those that had chosen another display currency), read by the currency backfill steps.
 */
export const currencyBackfills = pgTable("currency_backfills", {
  merchantId: bigint("merchant_id", { mode: "number" })
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  currency: text("currency").notNull(),
});
