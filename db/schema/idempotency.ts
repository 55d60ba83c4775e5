// Idempotency keys: a replayed create returns what the first one made (payments, refunds and payouts).
import { bigint, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { merchantIdColumn } from "./accounts";
import { createdAt, rowId, sameMerchantKey } from "./columns";
import { payments } from "./payments";
import { payouts } from "./payouts";
import { refunds } from "./refunds";

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
    key: text("key").notNull(),
    /** SHA-256 of the request body, to tell a replay from a reuse of the key with another body (409). */
    requestHash: text("request_hash").notNull(),
    paymentId: bigint("payment_id", { mode: "number" }),
    /** Set instead of payment_id when the key was claimed by a refund creation. */
    refundId: bigint("refund_id", { mode: "number" }),
    /** Set when the key was claimed by a payout creation. */
    payoutId: bigint("payout_id", { mode: "number" }),
    /**
     * What an action without a column of its own answered with: a dispute (evidence, close), a payment link,
     * the payout account (its merchant's id). The request hash names the action, so one key serves one.
     */
    resourceId: bigint("resource_id", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    sameMerchantKey("idempotency_keys_payment_fk", [t.merchantId, t.paymentId], payments),
    sameMerchantKey("idempotency_keys_refund_fk", [t.merchantId, t.refundId], refunds),
    sameMerchantKey("idempotency_keys_payout_fk", [t.merchantId, t.payoutId], payouts),
    uniqueIndex("idempotency_keys_merchant_key_idx").on(t.merchantId, t.key),
    // The pruner deletes expired keys oldest first.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
