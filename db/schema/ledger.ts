// The double-entry ledger (DESIGN.md, "Balances, fees and payouts"). Every table is keyed by merchant first,
// so a merchant's money lives on one shard (docs/scaling.md).
import { sql } from "drizzle-orm";
import { bigint, date, index, numeric, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { BALANCE_TRANSACTION_STATUSES, BALANCE_TRANSACTION_TYPES, LEDGER_ACCOUNTS } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt } from "./columns";

/**
 * One movement of a merchant's money as the merchant sees it (Stripe's balance transaction): its entries in
 * ledger_entries sum to 0. Only `status` changes after insert, when the releaser makes it available.
 */
export const balanceTransactions = pgTable(
  "balance_transactions",
  {
    merchantId: merchantIdColumn(),
    id: bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    type: text("type", { enum: BALANCE_TRANSACTION_TYPES }).notNull(),
    /** The payment, refund, payout or dispute that moved the money. */
    sourceId: bigint("source_id", { mode: "number" }).notNull(),
    /**
     * The payment it concerns (itself, a refund's or a dispute's; null for payouts), with that payment's order
     * and customer: written when it is posted, so a list or CSV line names them without a lookup per row.
     */
    paymentId: bigint("payment_id", { mode: "number" }),
    externalId: text("external_id"),
    customerId: text("customer_id"),
    currency: text("currency").notNull(),
    /** Signed: debits are negative. */
    amount: numeric("amount").notNull(),
    fee: numeric("fee").notNull().default("0"),
    /** amount - fee: what it adds to (or takes from) the merchant's balance. */
    net: numeric("net").notNull(),
    status: text("status", { enum: BALANCE_TRANSACTION_STATUSES }).notNull(),
    availableOn: at("available_on").notNull(),
    /** The payout that carried it to the merchant's bank, once one has. */
    payoutId: bigint("payout_id", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    index("balance_transactions_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("balance_transactions_merchant_source_idx").on(t.merchantId, t.sourceId),
    // A payout's reconciliation (`?payout_id=`, its CSV): only what a payout carried.
    index("balance_transactions_merchant_payout_idx")
      .on(t.merchantId, t.payoutId, t.id)
      .where(sql`${t.payoutId} is not null`),
    // The releaser's queue: only what is still pending.
    index("balance_transactions_pending_idx")
      .on(t.availableOn)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The entries of each posting of a balance transaction: its creation (`post`), its release from pending to
 * available (`release`), a payout's arrival (`arrive`). Each posting's entries sum to 0. Append-only.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    merchantId: merchantIdColumn(),
    transactionId: bigint("transaction_id", { mode: "number" }).notNull(),
    posting: text("posting", { enum: ["post", "release", "arrive", "return"] }).notNull(),
    account: text("account", { enum: LEDGER_ACCOUNTS }).notNull(),
    currency: text("currency").notNull(),
    amount: numeric("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.transactionId, t.posting, t.account] })],
);

/**
 * Each account's balance, kept by the statement that posts its entries, spread over a few slots that a
 * posting picks at random: two settles of one merchant rarely lock the same row, and a read sums a handful.
 */
export const ledgerBalances = pgTable(
  "ledger_balances",
  {
    merchantId: merchantIdColumn(),
    account: text("account", { enum: LEDGER_ACCOUNTS }).notNull(),
    currency: text("currency").notNull(),
    slot: smallint("slot").notNull(),
    amount: numeric("amount").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.account, t.currency, t.slot] })],
);

/**
 * How many balance transactions each UTC day has, and their net, per type and currency: the list's counts and
 * deep pages (readPageByDays) and the balance chart read these, never the transactions. Kept by the statements
 * that post, each change to a slot picked at random, as the balances are: one merchant's settles rarely wait
 * on each other here.
 */
export const balanceTransactionDailyTotals = pgTable(
  "balance_transaction_daily_totals",
  {
    merchantId: merchantIdColumn(),
    day: date("day").notNull(),
    type: text("type", { enum: BALANCE_TRANSACTION_TYPES }).notNull(),
    currency: text("currency").notNull(),
    slot: smallint("slot").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    /** Sums of the day's transactions' amount and fee (net = amount − fee): the reports' and the Overview's. */
    amount: numeric("amount").notNull().default("0"),
    fee: numeric("fee").notNull().default("0"),
    net: numeric("net").notNull().default("0"),
    /**
     * The net of the transactions whose `available_on` falls on this day (a payment's in its day of becoming
     * available, the rest in their own): the reports' pending and available balances at an instant.
     */
    available: numeric("available").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.day, t.type, t.currency, t.slot] })],
);

/**
 * The daily totals again, by quarter hour (UTC): a report in a time zone whose days do not start at a UTC
 * midnight reads its first and last part-days here and the whole UTC days between from the daily totals, so a
 * month in Europe/Berlin or Asia/Kolkata costs what it costs in UTC (every zone's offset is whole quarters).
 */
export const balanceTransactionQuarterHourTotals = pgTable(
  "balance_transaction_quarter_hour_totals",
  {
    merchantId: merchantIdColumn(),
    quarterHour: at("quarter_hour").notNull(),
    type: text("type", { enum: BALANCE_TRANSACTION_TYPES }).notNull(),
    currency: text("currency").notNull(),
    slot: smallint("slot").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    amount: numeric("amount").notNull().default("0"),
    fee: numeric("fee").notNull().default("0"),
    net: numeric("net").notNull().default("0"),
    available: numeric("available").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.quarterHour, t.type, t.currency, t.slot] })],
);
