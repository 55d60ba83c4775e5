// Payouts to the merchant's bank account (DESIGN.md, "Balances, fees and payouts"), keyed by merchant first.
import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { PAYOUT_ACCOUNT_STATUSES, PAYOUT_STATUSES } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, updatedAt } from "./columns";

/** Where payouts go: one bank account per merchant, its IBAN encrypted (shown as its last 4). */
export const payoutAccounts = pgTable("payout_accounts", {
  merchantId: merchantIdColumn().primaryKey(),
  accountHolder: text("account_holder").notNull(),
  /** AES-256-GCM (lib/platform/encryption.ts): an IBAN is not needed to read a payout, only to send one. */
  ibanCiphertext: text("iban_ciphertext").notNull(),
  ibanLast4: text("iban_last4").notNull(),
  /** `errored` once a payout failed because of the account (closed): no payout goes until it is replaced. */
  status: text("status", { enum: PAYOUT_ACCOUNT_STATUSES }).notNull().default("active"),
  /** Why it errored (the failed payout's reason); null while active. */
  failureReason: text("failure_reason"),
  /**
   * Until when payouts wait after the account was replaced (PAYOUT_ACCOUNT_CHANGE_HOLD, DESIGN.md "Changing the
   * payout account"): a stolen session that redirects the money gives the owners, emailed, time to act. Null for
   * a first account.
   */
  payoutsStartAt: at("payouts_start_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const payouts = pgTable(
  "payouts",
  {
    merchantId: merchantIdColumn(),
    id: bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    currency: text("currency").notNull(),
    amount: numeric("amount").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    /** When it is expected in the bank account (UTC date). */
    arrivalDate: date("arrival_date").notNull(),
    destinationLast4: text("destination_last4").notNull(),
    /** The simulator's verdict, fixed when it is made: the closed-account test IBAN fails. */
    destinationClosed: boolean("destination_closed").notNull().default(false),
    failureReason: text("failure_reason"),
    /**
     * Whether it carries the balance transactions it pays out (their payout_id): a payout of all that was
     * available does, and they add up to its amount; one of part of it carries none.
     */
    reconciled: boolean("reconciled").notNull(),
    /** When the simulator moves it on (to in_transit, then to its end); null when only the test helper does. */
    moveAt: at("move_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    index("payouts_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The simulator's queue: only payouts still moving.
    index("payouts_move_at_idx")
      .on(t.moveAt)
      .where(sql`${t.status} in ('pending', 'in_transit')`),
  ],
);

/**
 * What each payout paid, by type of balance transaction (DESIGN.md, "Payout reconciliation"), written when it is
 * made: its lines add up to its amount. The money of a failed payout it pays back counts under the original
 * transactions' types, not as `payout_failure`; a payout of part is one `itemized_later` line (the next payout of
 * all carries its transactions, and its debit as a `payout` line).
 */
export const payoutTypeTotals = pgTable(
  "payout_type_totals",
  {
    merchantId: merchantIdColumn(),
    payoutId: bigint("payout_id", { mode: "number" }).notNull(),
    type: text("type").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    amount: numeric("amount").notNull().default("0"),
    fee: numeric("fee").notNull().default("0"),
    net: numeric("net").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.payoutId, t.type] })],
);
