import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor } from "@/db/client";
import { onceMoreOnConflict } from "@/db/errors";
import { MANUAL_FAILURE_REASONS, type SettledBy } from "@/lib/payments/settlement";
import { DomainError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { unownedRowError } from "@/lib/platform/ownership";
import { parseInput } from "@/lib/platform/validation";
import { REAL_TIME, type WorkClock } from "@/lib/platform/work-clock";
import { toRefundResource, type RefundRow } from "./resource";
import { settleRefundSchema, type RefundResource } from "./schemas";

export type RefundOutcome = "succeeded" | "failed";

/** A pending refund the transition left as it was is a processor's: only what its processor answers moves it (409). */
export const REFUNDED_BY_ITS_PROCESSOR =
  "This refund is given back by its payment's processor (Mollie or Stripe): it succeeds or fails when the processor says so.";
export type RefundSettlement = { outcome: RefundOutcome; failureReason: string | null };

/**
 * Deterministic, so merchants can test both paths: a refund whose amount ends in .99 fails, any other
 * succeeds. (A payment's own failing range, 2000.00 to 2999.99, never completes, so it could not be used.)
 */
export function simulateRefund(refund: { amount: string }): RefundSettlement {
  if (!refund.amount.endsWith(".99")) return { outcome: "succeeded", failureReason: null };
  return {
    outcome: "failed",
    failureReason: "Declined by the test processor: a refund amount ending in .99 always fails.",
  };
}

/**
 * The one refund transition, as one call of the database's `settle_refund` (db/functions/refunds.sql): the
 * refund out of pending, the payment's sums and day's totals, a failed refund's money back on the balance,
 * its event with deliveries, and the counts and totals that follow, top to bottom. In the caller's
 * transaction when `db` is one. Concurrent settles of one refund give exactly one transition and one event.
 * Null when it was not pending (or not this merchant's), or is a processor's and `byProcessor` is not set.
 */
export async function transitionRefund(
  db: Executor,
  refundId: number,
  settlement: RefundSettlement,
  merchantId: number,
  byProcessor = false,
): Promise<RefundRow | null> {
  const [row] = await selectRows<{ settled: RefundRow | null }>(
    db,
    sql`select settle_refund(${merchantId}::bigint, ${refundId}::bigint, ${publicId("evt")}::text,
      ${settlement.outcome}::text, ${settlement.failureReason}::text, ${!onCitus()}::boolean,
      ${byProcessor}::boolean) as settled`,
  );
  return row?.settled ?? null;
}

/**
 * Settles one pending refund by hand or by the test helper (dashboard, test helper: scoped to `merchantId`;
 * the operator's CLI: null, any merchant's).
 */
export async function settleRefund(
  db: Executor,
  refundId: number,
  input: unknown,
  merchantId: number | null,
  by: SettledBy = "hand",
): Promise<RefundResource> {
  const { outcome } = parseInput(settleRefundSchema, input);
  // The operator's CLI names no merchant: the refund's own, found by id.
  const [existing] = await selectRows<{ merchant_id: number | string }>(
    db,
    sql`select merchant_id from refunds where id = ${refundId} ${merchantId === null ? sql`` : sql`and merchant_id = ${merchantId}`}`,
  );
  if (!existing) throw await unownedRowError(db, "refunds", refundId, merchantId);
  const owner = Number(existing.merchant_id);
  const settlement = { outcome, failureReason: outcome === "failed" ? MANUAL_FAILURE_REASONS[by] : null };
  const settled = await onceMoreOnConflict(() => transitionRefund(db, refundId, settlement, owner));
  if (settled) return toRefundResource(settled);
  const [now] = await selectRows<{ status: string }>(
    db,
    sql`select status from refunds where id = ${refundId} and merchant_id = ${owner}`,
  );
  if (now?.status === "pending") throw new DomainError("conflict", REFUNDED_BY_ITS_PROCESSOR);
  throw new DomainError(
    "conflict",
    `Refund ${refundId} is already ${now?.status ?? "settled"}; succeeded and failed are final.`,
  );
}

/** The simulator's automatic settlement: refunds whose settle_at has passed, a batch at a time. */
export async function settleDueRefunds(
  db: Executor,
  limit = 100,
  clock: WorkClock = REAL_TIME,
): Promise<number> {
  const isDue = sql`status = 'pending' and settle_at <= ${clock.now} and ${clock.covers()}`;
  return forEachDueMerchant(db, { table: "refunds", where: isDue }, (merchant) =>
    settleClaimedRefunds(db, sql`${isDue} ${merchant.and()}`, limit),
  );
}

async function settleClaimedRefunds(db: Executor, isDue: SQL, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await selectRows<{ id: number | string; merchant_id: number | string; amount: string }>(
      tx,
      sql`select id, merchant_id, amount from refunds where ${isDue}
          order by settle_at limit ${limit} for update skip locked`,
    );
    // Each event adds to its merchant's hourly count for its type, locking that row until commit: every
    // batch takes them in one order (merchant, then outcome), so two settlers never deadlock.
    const decided = due
      .map((row) => ({ row, settlement: simulateRefund(row) }))
      .sort(
        (a, b) =>
          Number(a.row.merchant_id) - Number(b.row.merchant_id) ||
          a.settlement.outcome.localeCompare(b.settlement.outcome),
      );
    for (const { row, settlement } of decided)
      await transitionRefund(tx, Number(row.id), settlement, Number(row.merchant_id));
    return due.length;
  });
}
