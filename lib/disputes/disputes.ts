import "server-only";
import { sql } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor } from "@/db/client";
import { DISPUTE_CLOSED, DISPUTE_EVIDENCE_FIELDS, type DisputeReason, type DisputeStatus } from "@/db/enums";
import { isWriteRefused } from "@/db/errors";
import { inMinorUnits } from "@/lib/money/amount";
import { recordEvent } from "@/lib/payments/outbox";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
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

/** The database's answers in the API's shape: the evidence fields it lists (toDispute's). */
const EVIDENCE_FIELDS = `{${DISPUTE_EVIDENCE_FIELDS.join(",")}}`;

/**
 * The payer's bank disputes a completed payment, now: the amount not refunded, withdrawn with the dispute fee
 * (`dispute`), unless it is an inquiry. One call of the database's `open_dispute`
 * (db/functions/disputes.sql), under the payment's row lock, so a refund cannot slip in beside it; in the
 * caller's transaction when `db` is one.
 */
export async function openDispute(
  db: Executor,
  merchantId: number,
  paymentId: number,
  options: { reason: DisputeReason; inquiry: boolean },
): Promise<Dispute> {
  const [row] = await selectRows<{ opened: Dispute }>(
    db,
    sql`select open_dispute(${merchantId}::bigint, ${paymentId}::bigint, ${publicId("evt")}::text,
      ${publicId("evt")}::text, ${options.reason}::text, ${options.inquiry}::boolean,
      ${getEnv().DISPUTE_EVIDENCE_DAYS}::int, ${EVIDENCE_FIELDS}::text[], ${!onCitus()}::boolean) as opened`,
  ).catch(async (error: unknown) => {
    throw isWriteRefused(error) ? await whyNotDisputable(db, merchantId, paymentId) : error;
  });
  return row!.opened;
}

/** Why a payment cannot be disputed, as it is now, in the API's words. */
async function whyNotDisputable(db: Executor, merchantId: number, paymentId: number): Promise<Error> {
  const [payment] = await selectRows<{
    status: string;
    disputed: boolean;
    disputable: string;
    zero: boolean;
  }>(
    db,
    sql`select status, dispute_status is not null as disputed, amount = 0 as zero,
               (amount - amount_refunded - amount_refund_pending)::text as disputable
        from payments where merchant_id = ${merchantId} and id = ${paymentId}`,
  );
  if (!payment) return new DomainError("not_found", `Payment ${paymentId} was not found.`);
  if (payment.status !== "completed")
    return validationError({ payment: ["Only a completed payment can be disputed."] });
  if (payment.zero)
    return validationError({ payment: ["A payment of 0 cannot be disputed: no money moved."] });
  if (payment.disputed) return new DomainError("conflict", `Payment ${paymentId} is already disputed.`);
  return validationError({ payment: ["A fully refunded payment cannot be disputed."] });
}

/**
 * The bank's decision: an inquiry closes (`warning_closed`, no money either way); a chargeback is won (the
 * amount reinstated, `dispute_won`; the fee is kept) or lost (nothing returns). One call of the database's
 * `decide_dispute` (db/functions/disputes.sql), under the dispute's row lock; in the caller's transaction
 * when `db` is one. A closed dispute is a 409, another merchant's a 404.
 */
export async function decideDispute(
  db: Executor,
  merchantId: number,
  disputeId: number,
  outcome: "won" | "lost",
): Promise<Dispute> {
  const [row] = await selectRows<{ decided: { dispute?: Dispute; closed?: DisputeStatus } | null }>(
    db,
    sql`select decide_dispute(${merchantId}::bigint, ${disputeId}::bigint, ${outcome}::text,
      ${publicId("evt")}::text, ${publicId("evt")}::text, ${EVIDENCE_FIELDS}::text[], ${!onCitus()}::boolean)
      as decided`,
  );
  const decided = row?.decided;
  if (!decided) throw new DomainError("not_found", `Dispute ${disputeId} was not found.`);
  if (decided.closed)
    throw new DomainError("conflict", `Dispute ${disputeId} is closed (${decided.closed}).`);
  return decided.dispute!;
}
