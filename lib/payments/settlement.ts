import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { onceMoreOnConflict } from "@/db/errors";
import { payments } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { unownedRowError } from "@/lib/platform/ownership";
import { parseInput, requiredChoice } from "@/lib/platform/validation";
import { REAL_TIME, type WorkClock } from "@/lib/platform/work-clock";
import { CANCELED_REASON } from "./canceled";
import { COMPLETED, simulatedProcessor, type PaymentProcessor, type Settlement } from "./processor";
import { toPaymentResource } from "./resource";
import { recordSettled, type TransitionedRow } from "./settled";
import { settleOne, transition, type Decision } from "./transition";

export const settleInputSchema = z.object({
  outcome: requiredChoice("outcome", ["completed", "failed"]),
});

/**
 * Who settled a payment or refund instead of the processor, and the failure reason each one gives; a payment
 * failed this way is `processor_declined`, as a real processor's refusal without a reason would be.
 */
export type SettledBy = "hand" | "test_helper";
export const MANUAL_FAILURE_REASONS: Record<SettledBy, string> = {
  // A person in the dashboard, or the operator's CLI.
  hand: "Marked as failed by hand.",
  // A merchant's code: POST /api/test-helpers/…/settle (the SDK, the CLI's trigger).
  test_helper: "Failed by the test helper.",
};

/** DESIGN.md's words for cancelling a payment that is no longer pending (409). */
export const NOT_CANCELABLE = "Only a pending payment can be canceled.";

/**
 * A pending payment the transition left as it was is a processor's (DESIGN.md, "Processors"): only what its
 * processor answers moves it (409).
 */
export const MOVED_BY_ITS_PROCESSOR =
  "This payment is taken by its processor (Mollie or Stripe): it completes or fails when the processor says so, and is canceled there.";

/** Who owns payment `id`: the operator's commands name a payment alone. */
async function ownerOf(db: Executor, paymentId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ merchantId: payments.merchantId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row?.merchantId;
}

/**
 * Settles one payment of `merchantId` (looked up when not given): the settled payment, the status that kept
 * it from settling, or undefined when there is no such payment.
 */
async function settleOwned(
  db: Executor,
  paymentId: number,
  settlement: Settlement,
  merchantId?: number,
): Promise<{ payment: ReturnType<typeof toPaymentResource> } | { status: string } | undefined> {
  const owner = merchantId ?? (await ownerOf(db, paymentId));
  if (owner === undefined) return undefined;
  const settled = await onceMoreOnConflict(() => settleOne(db, paymentId, settlement, owner));
  if (settled) return { payment: toPaymentResource(settled) };
  const [existing] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(and(eq(payments.merchantId, owner), eq(payments.id, paymentId)));
  return existing;
}

/**
 * Settles one pending payment by hand (dashboard, CLI) or by the test helper. `merchantId` scopes it to its
 * owner when given.
 */
export async function settlePayment(
  db: Executor,
  paymentId: number,
  input: unknown,
  merchantId?: number,
  by: SettledBy = "hand",
) {
  const { outcome } = parseInput(settleInputSchema, input);
  const settlement: Settlement =
    outcome === "failed"
      ? { outcome, failureCode: "processor_declined", failureReason: MANUAL_FAILURE_REASONS[by] }
      : COMPLETED;
  const result = await settleOwned(db, paymentId, settlement, merchantId);
  if (!result) throw new DomainError("not_found", `Payment ${paymentId} was not found.`);
  if ("payment" in result) return result.payment;
  if (result.status === "pending") throw new DomainError("conflict", MOVED_BY_ITS_PROCESSOR);
  throw new DomainError(
    "conflict",
    `Payment ${paymentId} is already ${result.status}; completed and failed are final.`,
  );
}

/**
 * A batch's transitions, one statement per merchant (each names its shard), merchants in ascending order so
 * that two batches take the merchants' ledger rows in the same order.
 */
async function transitionEachMerchant(
  tx: Transaction,
  decided: ReadonlyArray<{
    row: { id: number | string; merchant_id: number | string };
    settlement: Settlement;
  }>,
): Promise<TransitionedRow[]> {
  const byMerchant = new Map<number, Decision[]>();
  for (const { row, settlement } of decided) {
    const merchantId = Number(row.merchant_id);
    byMerchant.set(merchantId, [...(byMerchant.get(merchantId) ?? []), { paymentId: row.id, settlement }]);
  }
  const settled: TransitionedRow[] = [];
  for (const merchantId of [...byMerchant.keys()].sort((a, b) => a - b))
    settled.push(...(await transition(tx, byMerchant.get(merchantId)!, merchantId)));
  return settled;
}

/** The simulator's automatic settlement: payments whose settle_at has passed, a batch at a time. */
export async function settleDuePayments(
  db: Executor,
  limit = 100,
  processor: PaymentProcessor = simulatedProcessor,
  clock: WorkClock = REAL_TIME,
): Promise<number> {
  const isDue = sql`status = 'pending' and settle_at <= ${clock.now} and ${clock.covers()}`;
  return forEachDueMerchant(db, { table: "payments", where: isDue }, (merchant) =>
    settleClaimed(db, sql`${isDue} ${merchant.and()}`, limit, processor),
  );
}

async function settleClaimed(db: Executor, isDue: SQL, limit: number, processor: PaymentProcessor) {
  return db.transaction(async (tx) => {
    const due = await selectRows<{ id: number | string; merchant_id: number | string; amount: string }>(
      tx,
      sql`select id, merchant_id, amount from payments where ${isDue}
          order by settle_at limit ${limit} for update skip locked`,
    );
    const settled = await transitionEachMerchant(
      tx,
      due.map((row) => ({ row, settlement: processor.settle(row) })),
    );
    await recordSettled(tx, settled);
    return due.length;
  });
}

/**
 * Cancels a pending payment (the API, the dashboard, `admin payment:cancel`): it fails with DESIGN's reason
 * and emits `payment.failed`, through the one transition, so concurrent cancels and settles give exactly one.
 * `merchantId` scopes it to its owner when given.
 */
export async function cancelPayment(db: Executor, paymentId: number, merchantId: number | null) {
  const canceled: Settlement = { outcome: "failed", failureCode: "canceled", failureReason: CANCELED_REASON };
  const result = await settleOwned(db, paymentId, canceled, merchantId ?? undefined);
  if (result && "payment" in result) return result.payment;
  if (result)
    throw new DomainError("conflict", result.status === "pending" ? MOVED_BY_ITS_PROCESSOR : NOT_CANCELABLE);
  throw await unownedRowError(db, "payments", paymentId, merchantId);
}

/**
 * Fails payments pending longer than `expireAfterMs` (PAYMENTS_PENDING_EXPIRE_AFTER), a batch at a time,
 * each with `payment.failed` and a reason that says why. Returns how many were looked at.
 */
export async function expireStalePayments(
  db: Executor,
  expireAfterMs: number,
  limit = 100,
  clock: WorkClock = REAL_TIME,
): Promise<number> {
  // A processor's payment expires at its processor, which says so (lib/processors): never here.
  const isStale = sql`status = 'pending' and created_at <= ${clock.now} - ${expireAfterMs}::int * interval '1 millisecond'
                      and processor = 'simulator' and ${clock.covers()}`;
  return forEachDueMerchant(db, { table: "payments", where: isStale }, (merchant) =>
    expireClaimed(db, sql`${isStale} ${merchant.and()}`, expireAfterMs, limit),
  );
}

async function expireClaimed(db: Executor, isStale: SQL, expireAfterMs: number, limit: number) {
  return db.transaction(async (tx) => {
    const stale = await selectRows<{ id: number | string; merchant_id: number | string }>(
      tx,
      sql`select id, merchant_id from payments where ${isStale}
          order by merchant_id, created_at limit ${limit} for update skip locked`,
    );
    const failureReason = `Expired: still pending ${describeDuration(expireAfterMs)} after it was created.`;
    const expired = await transitionEachMerchant(
      tx,
      stale.map((row) => ({ row, settlement: { outcome: "failed", failureCode: "expired", failureReason } })),
    );
    await recordSettled(tx, expired);
    return stale.length;
  });
}

/** "24 hours", "30 minutes", "90 seconds": the largest whole unit, as a reason reads it. */
function describeDuration(ms: number): string {
  for (const [unit, size] of [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
    ["second", 1000],
  ] as const)
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? "" : "s"}`;
  return `${ms} ms`;
}
