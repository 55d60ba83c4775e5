// Payments and the daily totals kept beside them.
import { sql } from "drizzle-orm";
import {
  bigint,
  date,
  index,
  json,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import {
  DISPUTE_STATUSES,
  PAYMENT_FAILURE_CODES,
  PAYMENT_SOURCES,
  PAYMENT_STATUSES,
  PROCESSORS,
  REFUND_STATES,
} from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, rowId, updatedAt } from "./columns";

export const payments = pgTable(
  "payments",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
    /** Dense 1..n per merchant in creation order (see payment_sequences). */
    merchantSeq: bigint("merchant_seq", { mode: "number" }).notNull(),
    externalId: text("external_id"),
    customerId: text("customer_id"),
    type: text("type", { enum: ["payment"] })
      .notNull()
      .default("payment"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    /** Exactly its currency's minor units ("1500" JPY, "12.50" EUR): numeric without a fixed scale. */
    amount: numeric("amount").notNull(),
    /** ISO 4217, upper case (lib/money/currencies.ts). */
    currency: text("currency").notNull().default("USD"),
    /** What the platform took, in its currency, set when it completes (its merchant's price); null before. */
    fee: numeric("fee"),
    /** amount - fee: what it added to the merchant's balance; null until completed. */
    net: numeric("net"),
    /** JSON text, returned to merchants verbatim (e.g. `{"customer_id":"cus_1"}`), or null. */
    metadata: text("metadata"),
    /** Where it was created: the API, the dashboard (test payment) or the admin CLI. */
    source: text("source", { enum: PAYMENT_SOURCES }).notNull().default("api"),
    /** When the simulated processor settles it; null when automatic settlement is off. */
    settleAt: at("settle_at"),
    settledAt: at("settled_at"),
    /** Why it failed, in words for the merchant (the processor's reason, or "marked by hand"); null otherwise. */
    failureReason: text("failure_reason"),
    /** The same as a code (PAYMENT_FAILURE_CODES) a merchant's program can branch on; null unless failed. */
    failureCode: text("failure_code", { enum: PAYMENT_FAILURE_CODES }),
    /**
     * The card it was paid (or declined) with at its checkout: `{type, brand, last4, exp_month, exp_year}`,
     * never the number or the CVC; null for a payment no payer paid.
     */
    paymentMethod: json("payment_method").$type<PaymentMethod>(),
    /**
     * Sums of its refunds by state, kept by the statements that create and settle refunds under this row's
     * lock: refundable = amount - refunded - refund_pending, never a sum over refunds on the money path.
     */
    amountRefunded: numeric("amount_refunded").notNull().default("0"),
    /**
     * Its dispute's status, kept by the statements that move the dispute (under this row's lock), or null: a
     * refund reads it in the row it locks, and lists mark "Disputed" without a join.
     */
    disputeStatus: text("dispute_status", { enum: DISPUTE_STATUSES }),
    amountRefundPending: numeric("amount_refund_pending").notNull().default("0"),
    /** Who takes it: the simulator, or the processor its environment was connected to when it was made. */
    processor: text("processor", { enum: PROCESSORS }).notNull().default("simulator"),
    /** Its id at that processor (Mollie `tr_…`, a Stripe Checkout Session `cs_…`); null for the simulator. */
    processorPaymentId: text("processor_payment_id"),
    /** When the reconciler last asked its processor about it (a webhook that never came); null: never. */
    processorCheckedAt: at("processor_checked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // By id alone: only the API's 403-or-404 on a miss (lib/platform/ownership.ts).
    index("payments_id_idx").on(t.id),
    uniqueIndex("payments_merchant_seq_idx").on(t.merchantId, t.merchantSeq),
    // A processor's webhook names its own id: found in the environment its path names.
    uniqueIndex("payments_merchant_processor_payment_idx")
      .on(t.merchantId, t.processorPaymentId)
      .where(sql`processor_payment_id is not null`),
    // The reconciler's few: processors' payments still pending, oldest first.
    index("payments_processor_pending_idx")
      .on(t.createdAt)
      .where(sql`status = 'pending' and processor <> 'simulator'`),
    // Plain DESC (nulls first, PostgreSQL's default for DESC) so `order by created_at desc, id desc` uses them.
    index("payments_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("payments_merchant_status_created_idx").on(
      t.merchantId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The dashboard's search: external id by case-insensitive prefix, customer id exactly.
    index("payments_merchant_external_id_prefix_idx").on(
      t.merchantId,
      sql`lower(${t.externalId}) text_pattern_ops`,
    ),
    // A customer's payments, newest first (the customer_id filter, a customer's page, the search box).
    index("payments_merchant_customer_created_idx").on(
      t.merchantId,
      t.customerId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("payments_settle_at_idx")
      .on(t.settleAt)
      .where(sql`status = 'pending'`),
    // The expirer's pending payments older than PAYMENTS_PENDING_EXPIRE_AFTER.
    index("payments_pending_created_idx")
      .on(t.createdAt)
      .where(sql`status = 'pending'`),
  ],
);

/** What a payment's `payment_method` holds: the card, without its number or CVC. */
export type PaymentMethod = {
  type: "card";
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
};

/**
 * Count and volume of a merchant's payments per creation day (UTC) and status, kept in the same statements
 * that create and settle payments, so the Overview reads a few hundred rows instead of every payment.
 */
/**
 * How many payments each merchant has, beside its payments (merchants is a global table, copied to every node
 * on Citus; this is sharded with them). Incremented under its row lock when a payment is created, so it is
 * also the dense per-merchant sequence that makes any list page an index range, not an OFFSET scan; and the
 * last payment's created_at, so the next is never earlier, even when the clock is read before the lock.
 */
export const paymentSequences = pgTable("payment_sequences", {
  merchantId: merchantIdColumn().primaryKey(),
  paymentsCount: bigint("payments_count", { mode: "number" }).notNull().default(0),
  lastCreatedAt: at("last_created_at")
    .notNull()
    .default(sql`'-infinity'`),
});

export const paymentDailyTotals = pgTable(
  "payment_daily_totals",
  {
    merchantId: merchantIdColumn(),
    /**
     * Whose payments the row counts: '' for all of the merchant's, or one customer id's (the same statements
     * keep both), so a list filtered by customer counts and seeks like an unfiltered one.
     */
    customerId: text("customer_id").notNull().default(""),
    day: date("day").notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    /**
     * What succeeded refunds took: none, part or all of the amount (moved by the statement that settles a
     * refund). With it the list filters count, and seek to a deep page, from this table (lib/payments/list.ts).
     */
    refundState: text("refund_state", { enum: REFUND_STATES }).notNull().default("none"),
    /** Every figure is per currency: no sum ever adds two. */
    currency: text("currency").notNull().default("USD"),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    volume: numeric("volume").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.customerId, t.day, t.status, t.refundState, t.currency] })],
);
