// Refunds and the daily figures kept beside them.
import { sql } from "drizzle-orm";
import { bigint, date, index, numeric, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { PROCESSORS, REFUND_REASONS, REFUND_STATUSES } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, rowId, updatedAt, sameMerchantKey } from "./columns";
import { payments } from "./payments";

/** Money given back on a completed payment, in part or whole (DESIGN.md, "Refunds and cancellation"). */
export const refunds = pgTable(
  "refunds",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
    paymentId: bigint("payment_id", { mode: "number" }).notNull(),
    /** Its payment's customer id (a payment's never changes), so a customer's refunds are an index range. */
    customerId: text("customer_id"),
    amount: numeric("amount").notNull(),
    /** Its payment's. */
    currency: text("currency").notNull().default("USD"),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    reason: text("reason", { enum: REFUND_REASONS }),
    externalId: text("external_id"),
    /** Why it failed, in words for the merchant; null otherwise. */
    failureReason: text("failure_reason"),
    /** When the simulated processor settles it; null when automatic settlement is off. */
    settleAt: at("settle_at"),
    settledAt: at("settled_at"),
    /** Who gives it back: its payment's processor (DESIGN.md, "Processors"), or the simulator. */
    processor: text("processor", { enum: PROCESSORS }).notNull().default("simulator"),
    /** Its id at that processor (Mollie's `re_…`, Stripe's `re_…`); null until the processor has it. */
    processorRefundId: text("processor_refund_id"),
    /** When it was last sent to or asked about at its processor; null: never. */
    processorCheckedAt: at("processor_checked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // By id alone: only the API's 403-or-404 on a miss (lib/platform/ownership.ts).
    index("refunds_id_idx").on(t.id),
    sameMerchantKey("refunds_payment_fk", [t.merchantId, t.paymentId], payments),
    index("refunds_payment_idx").on(t.paymentId, t.id.desc()),
    // The refunds list's orders (newest first; by status; a customer's), as the payments' indexes: with the id,
    // so a deep page seeks by (created_at, id) (lib/refunds/queries.ts).
    index("refunds_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("refunds_merchant_status_created_idx").on(
      t.merchantId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("refunds_merchant_customer_created_idx")
      .on(t.merchantId, t.customerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`customer_id is not null`),
    // A processor's webhook names its own id: found in the environment its path names.
    uniqueIndex("refunds_merchant_processor_refund_idx")
      .on(t.merchantId, t.processorRefundId)
      .where(sql`processor_refund_id is not null`),
    // The reconciler's few: processors' refunds still pending, oldest first.
    index("refunds_processor_pending_idx")
      .on(t.createdAt)
      .where(sql`status = 'pending' and processor <> 'simulator'`),
    // The settler's due refunds.
    index("refunds_pending_settle_idx")
      .on(t.settleAt)
      .where(sql`status = 'pending'`),
  ],
);

/**
 * What succeeded refunds took per UTC day of their success, kept by the statement that settles a refund: the
 * Overview's refunded figure and its chart's refunds read a row per day, not every refund.
 */
export const refundDailyTotals = pgTable(
  "refund_daily_totals",
  {
    merchantId: merchantIdColumn(),
    day: date("day").notNull(),
    currency: text("currency").notNull().default("USD"),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    amount: numeric("amount").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.day, t.currency] })],
);

/**
 * How many refunds were made per UTC day of their creation, by status, kept by the statements that create and
 * settle refunds: the refunds list counts its total, and finds the day a deep page starts in, from a row per
 * day instead of every refund (lib/refunds/queries.ts).
 */
export const refundDailyCounts = pgTable(
  "refund_daily_counts",
  {
    merchantId: merchantIdColumn(),
    /** Whose refunds the row counts: '' for all of the merchant's, or one customer id's (as payment_daily_totals). */
    customerId: text("customer_id").notNull().default(""),
    day: date("day").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.customerId, t.day, t.status] })],
);
