import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { onceMoreOnConflict } from "@/db/errors";
import { withDecimals } from "@/lib/money/amount";
import { minorUnits } from "@/lib/money/currencies";
import { DomainError } from "@/lib/platform/errors";
import type { RefundRow } from "@/lib/refunds/resource";
import { transitionRefund, type RefundSettlement } from "@/lib/refunds/settlement";
import { connectorFor, readProcessorConnection, type ProcessorConnection } from "./connections";
import type { ProcessorRefundOutcome } from "./connector";

// A refund of a processor's payment (DESIGN.md, "Processors"). It is made here first, where what is refundable
// is checked and reserved under the payment's lock (create_refund), so two refunds never give back more than was
// paid; then it is sent to the processor under a key derived from the refund, so no retry (the request's, the
// reconciler's) gives the money back twice; then only what the processor answers moves it.

type ProcessorRefund = {
  id: number | string;
  status: string;
  amount: string;
  currency: string;
  processor: string;
  processor_refund_id: string | null;
  processor_payment_id: string;
};

/** The processor's idempotency key for one refund: the same on every attempt, another for every refund. */
function refundKey(merchantId: number, refundId: number): string {
  return createHash("sha256").update(`refund:${merchantId}:${refundId}`).digest("hex");
}

async function readProcessorRefund(
  db: Executor,
  merchantId: number,
  where: { refundId: number } | { processorRefundId: string },
): Promise<ProcessorRefund | undefined> {
  const match =
    "refundId" in where
      ? sql`r.id = ${where.refundId}`
      : sql`r.processor_refund_id = ${where.processorRefundId}`;
  const [row] = await selectRows<ProcessorRefund>(
    db,
    sql`select r.id, r.status, r.amount::text as amount, r.currency, r.processor, r.processor_refund_id,
               p.processor_payment_id
        from refunds r join payments p on p.merchant_id = r.merchant_id and p.id = r.payment_id
        where r.merchant_id = ${merchantId} and ${match}`,
  );
  return row;
}

function settlementOf(outcome: ProcessorRefundOutcome): RefundSettlement | null {
  if (outcome.state === "pending") return null;
  return outcome.state === "succeeded"
    ? { outcome: "succeeded", failureReason: null }
    : { outcome: "failed", failureReason: outcome.failureReason };
}

/** The processor's refusal of a refund, in its words (ProcessorRefusal, through callProcessor's 422). */
function refusalReason(error: unknown): string | null {
  if (!(error instanceof DomainError) || error.kind !== "validation") return null;
  return Object.values(error.fieldErrors ?? {})[0]?.[0] ?? error.message;
}

/**
 * Brings one pending processor refund up to date with its processor: sends it if the processor does not have
 * it yet (a refusal fails it with the processor's words), else asks where it stands; then the one transition
 * that calls for (settle_refund, by its processor). Returns the refund as settled, or null while it stays
 * pending, including when the processor cannot be reached now (the reconciler tries again).
 */
export async function syncProcessorRefund(
  db: Executor,
  merchantId: number,
  connection: ProcessorConnection,
  which: { refundId: number } | { processorRefundId: string },
): Promise<RefundRow | null> {
  const refund = await readProcessorRefund(db, merchantId, which);
  if (!refund || refund.status !== "pending" || refund.processor !== connection.processor) return null;
  const refundId = Number(refund.id);
  const connector = connectorFor(connection.processor, connection.key);
  let outcome: ProcessorRefundOutcome;
  try {
    if (refund.processor_refund_id === null) {
      const made = await connector.createRefund({
        processorPaymentId: refund.processor_payment_id,
        amount: withDecimals(refund.amount, minorUnits(refund.currency)),
        currency: refund.currency,
        reference: `refund_${refundId}`,
        idempotencyKey: refundKey(merchantId, refundId),
      });
      await db.execute(sql`
        update refunds set processor_refund_id = ${made.id}, processor_checked_at = now()
        where merchant_id = ${merchantId} and id = ${refundId} and processor_refund_id is null`);
      outcome = made.outcome;
    } else {
      outcome = await connector.refundOutcome(refund.processor_payment_id, refund.processor_refund_id);
    }
  } catch (error) {
    if (error instanceof DomainError && error.kind === "unavailable") return null;
    const reason = refusalReason(error);
    if (reason === null) throw error;
    // Only a refund the processor never made fails on its refusal (its money was not given back); one it made
    // stays as it is until the processor can say where it stands (a key revoked since, say).
    if (refund.processor_refund_id !== null) return null;
    outcome = { state: "failed", failureReason: reason };
  }
  const settlement = settlementOf(outcome);
  if (!settlement) return null;
  return onceMoreOnConflict(() => transitionRefund(db, refundId, settlement, merchantId, true));
}

/**
 * Mollie reports a refund's change with its payment's id: each of that payment's refunds still pending there
 * is asked about.
 */
export async function syncRefundsOfPayment(
  db: Executor,
  merchantId: number,
  connection: ProcessorConnection,
  processorPaymentId: string,
): Promise<number> {
  const pending = await selectRows<{ id: number | string }>(
    db,
    sql`select r.id from refunds r join payments p on p.merchant_id = r.merchant_id and p.id = r.payment_id
        where r.merchant_id = ${merchantId} and p.processor_payment_id = ${processorPaymentId}
          and r.status = 'pending' and r.processor_refund_id is not null`,
  );
  let settled = 0;
  for (const row of pending)
    if (await syncProcessorRefund(db, merchantId, connection, { refundId: Number(row.id) })) settled += 1;
  return settled;
}

/** createRefund's `atProcessor`: a new refund of one of the environment's processor payments, sent there now. */
export function refundsAtProcessor(db: Executor, merchantId: number) {
  return async (refundId: number): Promise<RefundRow | null> => {
    const connection = await readProcessorConnection(db, merchantId);
    return connection && syncProcessorRefund(db, merchantId, connection, { refundId });
  };
}
