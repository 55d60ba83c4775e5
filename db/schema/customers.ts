// The customer ids a merchant has used, with their running sums.
import { sql } from "drizzle-orm";
import { bigint, index, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { merchantIdColumn } from "./accounts";
import { at } from "./columns";

/**
 * One row per customer id a merchant has used, kept by the statements that create and settle payments and
 * refunds (as the daily totals are): the Customers page and API read it instead of scanning payments.
 */
export const customers = pgTable(
  "customers",
  {
    merchantId: merchantIdColumn(),
    customerId: text("customer_id").notNull(),
    paymentsCount: bigint("payments_count", { mode: "number" }).notNull().default(0),
    firstPaymentAt: at("first_payment_at").notNull(),
    lastPaymentAt: at("last_payment_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.customerId] }),
    index("customers_merchant_last_payment_idx").on(
      t.merchantId,
      t.lastPaymentAt.desc().nullsFirst(),
      t.customerId.desc().nullsFirst(),
    ),
    // The search box's customer id prefix (`cus_b` finds `cus_big`): a range that text_pattern_ops serves.
    index("customers_merchant_customer_prefix_idx").on(t.merchantId, sql`${t.customerId} text_pattern_ops`),
  ],
);

/** A customer's sums in one currency, kept beside its `customers` row by the same statements. */
export const customerVolumes = pgTable(
  "customer_volumes",
  {
    merchantId: merchantIdColumn(),
    customerId: text("customer_id").notNull(),
    currency: text("currency").notNull(),
    /** Sum of its completed payments in this currency. */
    completed: numeric("completed").notNull().default("0"),
    /** Sum of its succeeded refunds in this currency. */
    refunded: numeric("refunded").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.customerId, t.currency] })],
);
