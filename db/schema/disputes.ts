// Disputes: the payer's bank takes a payment back, and the merchant answers (DESIGN.md, "Disputes"). Keyed by
// merchant first, ready for Citus.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { DISPUTE_REASONS, DISPUTE_STATUSES, type DisputeEvidenceField } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, updatedAt } from "./columns";

export const disputes = pgTable(
  "disputes",
  {
    merchantId: merchantIdColumn(),
    id: bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    paymentId: bigint("payment_id", { mode: "number" }).notNull(),
    /** What the bank took back: the payment's amount less what had been refunded, in its currency. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    reason: text("reason", { enum: DISPUTE_REASONS }).notNull(),
    status: text("status", { enum: DISPUTE_STATUSES }).notNull(),
    /** The merchant's answer so far (a draft until submitted): evidence field → text. */
    evidence: jsonb("evidence").$type<Partial<Record<DisputeEvidenceField, string>>>().notNull().default({}),
    evidenceSubmittedAt: at("evidence_submitted_at"),
    /** Past it without a submission, the dispute is lost (an inquiry closes). */
    evidenceDueBy: at("evidence_due_by").notNull(),
    /** The simulated bank's verdict on submitted evidence with a magic word, and when it lands. */
    decision: text("decision", { enum: ["won", "lost"] }),
    decideAt: at("decide_at"),
    closedAt: at("closed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // One dispute per payment, as a card network allows.
    uniqueIndex("disputes_merchant_payment_idx").on(t.merchantId, t.paymentId),
    index("disputes_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("disputes_merchant_status_created_idx").on(
      t.merchantId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The deadline's queue: only those still waiting for an answer.
    index("disputes_due_idx")
      .on(t.evidenceDueBy)
      .where(sql`${t.status} in ('needs_response', 'warning_needs_response')`),
    // The simulated bank's queue: submitted evidence with a verdict to land.
    index("disputes_decide_idx")
      .on(t.decideAt)
      .where(sql`${t.decideAt} is not null`),
  ],
);

/**
 * Disputes the test cards open a few seconds after the payment completes (the simulated bank's delay),
 * whatever PAYMENTS_AUTO_SETTLE_MS is. A row goes when its dispute opens.
 */
export const scheduledDisputes = pgTable(
  "scheduled_disputes",
  {
    merchantId: merchantIdColumn(),
    paymentId: bigint("payment_id", { mode: "number" }).notNull(),
    reason: text("reason", { enum: DISPUTE_REASONS }).notNull(),
    /** An inquiry (`warning_needs_response`): nothing is withdrawn. */
    inquiry: boolean("inquiry").notNull().default(false),
    openAt: at("open_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.paymentId] }),
    index("scheduled_disputes_open_idx").on(t.openAt),
  ],
);
