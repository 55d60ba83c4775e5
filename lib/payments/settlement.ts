import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import type { PaymentFailureCode } from "@/db/enums";
import { onceMoreOnConflict } from "@/db/errors";
import { payments, type PaymentMethod } from "@/db/schema";
import { feeSql, paymentPosting, post } from "@/lib/ledger/postings";
import { DomainError } from "@/lib/platform/errors";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { unownedRowError } from "@/lib/platform/ownership";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { parseInput, requiredChoice } from "@/lib/platform/validation";
import { CANCELED_REASON } from "./canceled";
import { recordPaymentEvent } from "./outbox";
import { COMPLETED, simulatedProcessor, type PaymentProcessor, type Settlement } from "./processor";
import { toPaymentResource } from "./resource";

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

type TransitionedRow = {
  id: number | string;
  merchant_id: number | string;
  external_id: string | null;
  /** What it moved to: a transition leaves pending. */
  status: "completed" | "failed";
  amount: string;
  currency: string;
  metadata: string | null;
  created_at: Date | string;
  payment_method: PaymentMethod | null;
  customer_id: string | null;
  failure_code: PaymentFailureCode | null;
  failure_reason: string | null;
  fee: string | null;
  net: string | null;
  settled_at: Date | string;
};

/** A settlement decided at the checkout page: with the card the payer paid (or was declined) with. */
export type PayerSettlement = Settlement & { paymentMethod: PaymentMethod };

/**
 * Moves settled payments from their day's pending totals to their outcome's (the merchant's and their
 * customer's rows: the Overview's and the lists' rollup), and adds completed ones to their customer's volume,
 * one statement each per batch. PostgreSQL sums the moves per row and applies them in key order, so two
 * workers settling at once lock the rows in the same order and cannot deadlock.
 */
async function moveRollups(tx: Transaction, settled: TransitionedRow[]): Promise<void> {
  if (settled.length === 0) return;
  const moves = settled.flatMap((row) => {
    const createdAt = isoTimestamp(row.created_at);
    return ["", row.customer_id ?? ""]
      .filter((scope, index) => index === 0 || scope !== "")
      .flatMap((scope) => [
        sql`(${row.merchant_id}::bigint, ${scope}::text, ${createdAt}::timestamptz, 'pending', ${row.currency}::text, -1, -${row.amount}::numeric)`,
        sql`(${row.merchant_id}::bigint, ${scope}::text, ${createdAt}::timestamptz, ${row.status}::text, ${row.currency}::text, 1, ${row.amount}::numeric)`,
      ]);
  });
  await tx.execute(sql`
    insert into payment_daily_totals as t (merchant_id, customer_id, day, status, currency, count, volume)
    select merchant_id, customer_id, (created_at at time zone 'UTC')::date, status, currency, sum(count), sum(volume)
    from (values ${sql.join(moves, sql`, `)}) as v(merchant_id, customer_id, created_at, status, currency, count, volume)
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (merchant_id, customer_id, day, status, refund_state, currency) do update
      set count = t.count + excluded.count, volume = t.volume + excluded.volume`);
  const completed = settled.filter((row) => row.status === "completed" && row.customer_id);
  if (completed.length === 0) return;
  await tx.execute(sql`
    insert into customer_volumes as c (merchant_id, customer_id, currency, completed)
    select merchant_id, customer_id, currency, sum(volume)
    from (values ${sql.join(
      completed.map(
        (row) =>
          sql`(${row.merchant_id}::bigint, ${row.customer_id}::text, ${row.currency}::text, ${row.amount}::numeric)`,
      ),
      sql`, `,
    )}) as moved(merchant_id, customer_id, currency, volume)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (merchant_id, customer_id, currency) do update set completed = c.completed + excluded.completed`);
}

/**
 * What follows transitioned payments in their transaction: each completed one's balance transaction (its
 * amount, fee and net on the ledger), each one's event, and the rollups. In that order: the ledger's rows are
 * slotted and rarely shared, while the event counts and the rollups are one row per merchant and hour or day,
 * locked until commit; taken last, they are held for as short a time as the transaction allows, and the
 * settles of one merchant queue on them the least.
 */
async function recordSettled(tx: Transaction, settled: TransitionedRow[]): Promise<void> {
  await post(
    tx,
    settled
      .filter((row) => row.status === "completed")
      .map((row) => paymentPosting({ ...row, fee: row.fee!, net: row.net! })),
  );
  for (const row of settled)
    await recordPaymentEvent(tx, Number(row.merchant_id), `payment.${row.status}`, toPaymentResource(row));
  await moveRollups(tx, settled);
}

/**
 * The one transition: a single `UPDATE … WHERE status = 'pending'`; its event and deliveries follow in the same
 * transaction (recordSettled). Concurrent settles of one payment give exactly one transition and one event.
 */
async function transition(
  tx: Transaction,
  paymentId: number,
  settlement: Settlement | PayerSettlement,
  merchantId?: number,
) {
  const { outcome, failureCode, failureReason } = settlement;
  const card = "paymentMethod" in settlement ? JSON.stringify(settlement.paymentMethod) : null;
  // At the merchant's price (its row is read, not locked: UPDATE … FROM locks only the payment).
  const fee = feeSql(sql`p.amount`, sql`p.currency`, sql`m.fee_percent`, sql`m.fee_fixed`);
  const [row] = await selectRows<TransitionedRow>(
    tx,
    sql`update payments p set status = ${outcome}, failure_reason = ${failureReason}, failure_code = ${failureCode},
               settled_at = now(), updated_at = now(), payment_method = coalesce(${card}::json, p.payment_method),
               fee = case when ${outcome}::text = 'completed' then ${fee} end,
               net = case when ${outcome}::text = 'completed' then p.amount - ${fee} end
        from merchants m
        where p.id = ${paymentId} and p.status = 'pending' and m.id = p.merchant_id
              ${merchantId === undefined ? sql`` : sql`and p.merchant_id = ${merchantId}`}
        returning p.id, p.merchant_id, p.external_id, p.status, p.amount, p.currency, p.metadata, p.created_at,
                  p.payment_method, p.customer_id, p.failure_code, p.failure_reason, p.fee, p.net, p.settled_at`,
  );
  return row;
}

/**
 * The payer's settlement at the checkout page, in the caller's transaction (which holds the checkout's row
 * lock): false when the payment was no longer pending (another tab, a cancel or the expirer came first).
 */
export async function settleByPayer(
  tx: Transaction,
  paymentId: number,
  merchantId: number,
  settlement: PayerSettlement,
): Promise<boolean> {
  const row = await transition(tx, paymentId, settlement, merchantId);
  if (row) await recordSettled(tx, [row]);
  return row !== undefined;
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
  const settled = await onceMoreOnConflict(() =>
    db.transaction(async (tx) => {
      const row = await transition(tx, paymentId, settlement, merchantId);
      if (row) await recordSettled(tx, [row]);
      return row;
    }),
  );
  if (settled) return toPaymentResource(settled);
  const [existing] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(
      merchantId === undefined
        ? eq(payments.id, paymentId)
        : and(eq(payments.merchantId, merchantId), eq(payments.id, paymentId)),
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
  const isDue = sql`status = 'pending' and settle_at <= now()`;
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
    // Each event adds to its merchant's count for its type (event_hourly_counts), locking that row until
    // commit: every batch takes them in one order (merchant, then outcome), so two settlers never deadlock.
    const decided = due
      .map((row) => ({ row, settlement: processor.settle(row) }))
      .sort(
        (a, b) =>
          Number(a.row.merchant_id) - Number(b.row.merchant_id) ||
          a.settlement.outcome.localeCompare(b.settlement.outcome),
      );
    const settled: TransitionedRow[] = [];
    for (const { row, settlement } of decided) {
      // Its merchant too: the statement then names the shard it touches (docs/scaling.md).
      const transitioned = await transition(tx, Number(row.id), settlement, Number(row.merchant_id));
      if (transitioned) settled.push(transitioned);
    }
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
  const canceled = await onceMoreOnConflict(() =>
    db.transaction(async (tx) => {
      const row = await transition(
        tx,
        paymentId,
        { outcome: "failed", failureCode: "canceled", failureReason: CANCELED_REASON },
        merchantId ?? undefined,
      );
      if (row) await recordSettled(tx, [row]);
      return row;
    }),
  );
  if (canceled) return toPaymentResource(canceled);
  const [existing] = await db
    .select({ merchantId: payments.merchantId })
    .from(payments)
    .where(
      merchantId === null
        ? eq(payments.id, paymentId)
        : and(eq(payments.merchantId, merchantId), eq(payments.id, paymentId)),
    );
  if (existing) throw new DomainError("conflict", NOT_CANCELABLE);
  throw await unownedRowError(db, "payments", paymentId, merchantId);
}

/**
 * Fails payments pending longer than `expireAfterMs` (PAYMENTS_PENDING_EXPIRE_AFTER), a batch at a time,
 * each with `payment.failed` and a reason that says why. Returns how many were looked at.
 */
export async function expireStalePayments(db: Executor, expireAfterMs: number, limit = 100): Promise<number> {
  const isStale = sql`status = 'pending' and created_at < now() - ${expireAfterMs}::int * interval '1 millisecond'`;
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
    const expired: TransitionedRow[] = [];
    for (const row of stale) {
      const transitioned = await transition(
        tx,
        Number(row.id),
        { outcome: "failed", failureCode: "expired", failureReason },
        Number(row.merchant_id),
      );
      if (transitioned) expired.push(transitioned);
    }
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
