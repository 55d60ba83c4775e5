import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { DISPUTE_CLOSED, DISPUTE_EVIDENCE_FIELDS, type DisputeReason, type DisputeStatus } from "@/db/enums";
import { BALANCE, post } from "@/lib/ledger/postings";
import { disputeFee } from "@/lib/ledger/pricing";
import { inMinorUnits } from "@/lib/money/amount";
import { recordEvent } from "@/lib/payments/outbox";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { isoTimestamp } from "@/lib/platform/timestamps";
import type { Dispute, DisputeEventType } from "./schemas";

// A dispute's life (DESIGN.md, "Disputes"): opened on a completed payment (money withdrawn with a fee, unless an
// inquiry), answered with evidence, decided won (the amount reinstated, not the fee) or lost. Every step locks
// the dispute's row, moves the payment's dispute_status with it, and records its events in the same transaction.

export type DisputeRow = {
  merchant_id: number | string;
  id: number | string;
  payment_id: number | string;
  amount: string;
  currency: string;
  reason: DisputeReason;
  status: DisputeStatus;
  evidence: Partial<Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], string>> | string;
  evidence_due_by: Date | string;
  decision: "won" | "lost" | null;
  created_at: Date | string;
  closed_at: Date | string | null;
};

export const DISPUTE_COLUMNS = sql.raw(
  "merchant_id, id, payment_id, amount, currency, reason, status, evidence, evidence_due_by, decision, " +
    "created_at, closed_at",
);

export function toDispute(row: DisputeRow): Dispute {
  const evidence = typeof row.evidence === "string" ? (JSON.parse(row.evidence) as object) : row.evidence;
  return {
    id: Number(row.id),
    payment_id: Number(row.payment_id),
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    evidence: Object.fromEntries(
      DISPUTE_EVIDENCE_FIELDS.map((field) => [field, (evidence as Record<string, string>)[field] ?? null]),
    ) as Dispute["evidence"],
    evidence_due_by: isoTimestamp(row.evidence_due_by),
    is_refundable: false,
    created_at: isoTimestamp(row.created_at),
    closed_at: row.closed_at === null ? null : isoTimestamp(row.closed_at),
  };
}

const isInquiry = (status: DisputeStatus) => status.startsWith("warning_");

export async function recordDisputeEvent(tx: Executor, type: DisputeEventType, row: DisputeRow) {
  await recordEvent(tx, {
    merchantId: Number(row.merchant_id),
    type,
    data: toDispute(row),
    paymentId: Number(row.payment_id),
  });
}

/** Sets the dispute's new state, and the payment's copy of its status, in one statement. */
export async function updateDispute(
  tx: Executor,
  row: DisputeRow,
  set: ReturnType<typeof sql>,
): Promise<DisputeRow> {
  const [updated] = await selectRows<DisputeRow>(
    tx,
    sql`with moved as (
          update disputes set ${set}, updated_at = now()
          where merchant_id = ${row.merchant_id} and id = ${row.id}
          returning ${DISPUTE_COLUMNS}),
        marked as (
          update payments p set dispute_status = moved.status, updated_at = now()
          from moved where p.merchant_id = ${row.merchant_id} and p.id = moved.payment_id)
        select * from moved`,
  );
  return updated!;
}

/** The merchant's dispute under its row lock, or a 404 (another merchant's is none). */
export async function lockDispute(tx: Executor, merchantId: number, disputeId: number): Promise<DisputeRow> {
  const [row] = await selectRows<DisputeRow>(
    tx,
    sql`select ${DISPUTE_COLUMNS} from disputes where merchant_id = ${merchantId} and id = ${disputeId} for update`,
  );
  if (!row) throw new DomainError("not_found", `Dispute ${disputeId} was not found.`);
  return row;
}

/** A decided dispute takes nothing more: evidence, acceptance and decisions are a 409. */
export function refuseClosed(row: DisputeRow) {
  if (DISPUTE_CLOSED.includes(row.status))
    throw new DomainError("conflict", `Dispute ${Number(row.id)} is closed (${row.status}).`);
}

/**
 * The payer's bank disputes a completed payment, now: the amount not refunded, withdrawn with the dispute fee
 * (`dispute`), unless it is an inquiry. Under the payment's row lock, so a refund cannot slip in beside it.
 */
export async function openDispute(
  tx: Executor,
  merchantId: number,
  paymentId: number,
  options: { reason: DisputeReason; inquiry: boolean },
): Promise<DisputeRow> {
  const [payment] = await selectRows<{
    status: string;
    currency: string;
    disputed: boolean;
    disputable: string;
    zero: boolean;
  }>(
    tx,
    sql`select status, currency, dispute_status is not null as disputed, amount = 0 as zero,
               (amount - amount_refunded - amount_refund_pending)::text as disputable
        from payments where merchant_id = ${merchantId} and id = ${paymentId} for update`,
  );
  if (!payment) throw new DomainError("not_found", `Payment ${paymentId} was not found.`);
  if (payment.status !== "completed")
    throw validationError({ payment: ["Only a completed payment can be disputed."] });
  if (payment.zero)
    throw validationError({ payment: ["A payment of 0 cannot be disputed: no money moved."] });
  if (payment.disputed) throw new DomainError("conflict", `Payment ${paymentId} is already disputed.`);
  const amount = String(payment.disputable);
  if (!/[1-9]/.test(amount))
    throw validationError({ payment: ["A fully refunded payment cannot be disputed."] });
  const days = getEnv().DISPUTE_EVIDENCE_DAYS;
  const [row] = await selectRows<DisputeRow>(
    tx,
    sql`with opened as (
          insert into disputes (merchant_id, payment_id, amount, currency, reason, status, evidence_due_by)
          values (${merchantId}, ${paymentId}, ${amount}::numeric, ${payment.currency}, ${options.reason},
                  ${options.inquiry ? "warning_needs_response" : "needs_response"},
                  now() + ${days}::int * interval '1 day')
          returning ${DISPUTE_COLUMNS}),
        marked as (
          update payments p set dispute_status = opened.status, updated_at = now()
          from opened where p.merchant_id = ${merchantId} and p.id = opened.payment_id)
        select * from opened`,
  );
  await recordDisputeEvent(tx, "dispute.created", row!);
  if (options.inquiry) return row!;
  const fee = disputeFee(payment.currency);
  const [sum] = await selectRows<{ withdrawn: string }>(
    tx,
    sql`select (${amount}::numeric + ${fee}::numeric)::text as withdrawn`,
  );
  // The processor takes the amount back through clearing; the fee is the platform's.
  await post(tx, [
    {
      merchantId,
      type: "dispute",
      sourceId: row!.id,
      currency: payment.currency,
      amount: `-${amount}`,
      fee,
      net: `-${sum!.withdrawn}`,
      availableOn: null,
      entries: [
        [BALANCE, `-${sum!.withdrawn}`],
        ["clearing", amount],
        ["fees", fee],
      ],
    },
  ]);
  await recordDisputeEvent(tx, "dispute.funds_withdrawn", row!);
  return row!;
}

/**
 * The bank's decision: an inquiry closes (`warning_closed`, no money either way); a chargeback is won (the
 * amount reinstated, `dispute_won`; the fee is kept) or lost (nothing returns).
 */
export async function decideLocked(
  tx: Executor,
  row: DisputeRow,
  outcome: "won" | "lost",
): Promise<DisputeRow> {
  refuseClosed(row);
  const status: DisputeStatus = isInquiry(row.status) ? "warning_closed" : outcome;
  const decided = await updateDispute(
    tx,
    row,
    sql`status = ${status}, closed_at = now(), decision = null, decide_at = null`,
  );
  if (status === "won") {
    await post(tx, [
      {
        merchantId: Number(row.merchant_id),
        type: "dispute_won",
        sourceId: row.id,
        currency: row.currency,
        amount: row.amount,
        fee: "0",
        net: row.amount,
        availableOn: null,
        entries: [
          [BALANCE, row.amount],
          ["clearing", `-${row.amount}`],
        ],
      },
    ]);
    await recordDisputeEvent(tx, "dispute.funds_reinstated", decided);
  }
  await recordDisputeEvent(tx, "dispute.closed", decided);
  return decided;
}
