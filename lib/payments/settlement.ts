import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { payments } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { messages, parseInput } from "@/lib/platform/validation";
import { recordPaymentEvent } from "@/lib/webhooks/outbox";
import { simulatedProcessor, type PaymentProcessor, type Settlement } from "./processor";
import { toPaymentResource } from "./resource";

export const settleInputSchema = z.object({
  outcome: z.enum(["completed", "failed"], { error: messages.in("outcome") }),
});

/** Why a payment failed when a person marked it (dashboard or admin CLI), not the processor. */
const MANUAL_FAILURE_REASON = "Marked as failed by hand.";

type TransitionedRow = {
  id: number | string;
  merchant_id: number | string;
  external_id: string | null;
  status: string;
  amount: string;
  metadata: string | null;
  created_at: Date | string;
};

/**
 * The one transition: a single `UPDATE … WHERE status = 'pending'`, with its event and deliveries in the
 * same transaction. Concurrent settles of one payment give exactly one transition and one event.
 */
async function transition(tx: Transaction, paymentId: number, settlement: Settlement, merchantId?: number) {
  const { outcome, failureReason } = settlement;
  const [row] = await selectRows<TransitionedRow>(
    tx,
    sql`update payments set status = ${outcome}, failure_reason = ${failureReason}, settled_at = now(), updated_at = now()
        where id = ${paymentId} and status = 'pending' ${merchantId === undefined ? sql`` : sql`and merchant_id = ${merchantId}`}
        returning id, merchant_id, external_id, status, amount, metadata, created_at`,
  );
  if (!row) return undefined;
  const payment = toPaymentResource(row);
  await recordPaymentEvent(tx, Number(row.merchant_id), `payment.${outcome}`, payment);
  return payment;
}

/** Settles one pending payment by hand (dashboard, CLI). `merchantId` scopes it to its owner when given. */
export async function settlePayment(db: Executor, paymentId: number, input: unknown, merchantId?: number) {
  const { outcome } = parseInput(settleInputSchema, input);
  const settlement: Settlement = {
    outcome,
    failureReason: outcome === "failed" ? MANUAL_FAILURE_REASON : null,
  };
  const payment = await db.transaction((tx) => transition(tx, paymentId, settlement, merchantId));
  if (payment) return payment;
  const [existing] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(
      merchantId === undefined
        ? eq(payments.id, paymentId)
        : and(eq(payments.id, paymentId), eq(payments.merchantId, merchantId)),
    );
  if (!existing) throw new DomainError("not_found", `Payment ${paymentId} was not found.`);
  throw new DomainError(
    "conflict",
    `Payment ${paymentId} is already ${existing.status}; completed and failed are final.`,
  );
}

/** The simulator's automatic settlement: payments whose settle_at has passed, a batch at a time. */
export async function settleDuePayments(
  db: Executor,
  limit = 100,
  processor: PaymentProcessor = simulatedProcessor,
): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await selectRows<{ id: number | string; amount: string }>(
      tx,
      sql`select id, amount from payments where status = 'pending' and settle_at <= now()
          order by settle_at limit ${limit} for update skip locked`,
    );
    for (const row of due) await transition(tx, Number(row.id), processor.settle(row));
    return due.length;
  });
}
