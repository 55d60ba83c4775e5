import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { onceMoreOnConflict } from "@/db/errors";
import { refundPostingCtes } from "@/lib/ledger/postings";
import { eventStatement } from "@/lib/payments/outbox";
import { MANUAL_FAILURE_REASONS, type SettledBy } from "@/lib/payments/settlement";
import { DomainError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { unownedRowError } from "@/lib/platform/ownership";
import { parseInput } from "@/lib/platform/validation";
import { REFUND_COLUMNS, refundResourceJson, toRefundResource, type RefundRow } from "./resource";
import { settleRefundSchema, type RefundResource } from "./schemas";

export type RefundOutcome = "succeeded" | "failed";
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

/** A payment's refund state (REFUND_STATES) for what its succeeded refunds took, `refunded`. */
function refundStateOf(refunded: SQL): SQL {
  return sql`(case when ${refunded} = 0 then 'none' when ${refunded} < moved.amount then 'partial' else 'full' end)`;
}

/**
 * The one refund transition, in the caller's transaction: one statement (`UPDATE … WHERE status = 'pending'`,
 * the payment's sums moved, a failed refund giving its amount back to what is refundable, its event with
 * deliveries), then its customer's refunded sum. Concurrent
 * settles of one refund give exactly one transition and one event. Null when it was not pending (or not
 * this merchant's, when `merchantId` is given).
 */
async function transitionRefund(
  db: Transaction,
  refundId: number,
  settlement: RefundSettlement,
  merchantId: number,
): Promise<RefundRow | null> {
  const eventType = `refund.${settlement.outcome}` as const;
  const [row] = await selectRows<RefundRow>(
    db,
    eventStatement({
      id: publicId("evt"),
      merchantId,
      type: eventType,
      paymentId: sql`settled.payment_id`,
      data: refundResourceJson("settled"),
      after: {
        ctes: sql`
        settled as (
          update refunds set status = ${settlement.outcome}, failure_reason = ${settlement.failureReason},
                 settled_at = now(), updated_at = now()
          where id = ${refundId} and merchant_id = ${merchantId} and status = 'pending'
          returning ${REFUND_COLUMNS}
        ), moved as (
          update payments p set amount_refund_pending = p.amount_refund_pending - settled.amount,
                 amount_refunded = p.amount_refunded
                   + case when settled.status = 'succeeded' then settled.amount else 0 end,
                 updated_at = now()
          from settled where p.merchant_id = ${merchantId} and p.id = settled.payment_id
          returning p.customer_id, p.created_at, p.status, p.amount, p.currency, p.amount_refunded,
                    p.amount_refunded - case when settled.status = 'succeeded' then settled.amount else 0 end
                      as refunded_before,
                    case when settled.status = 'succeeded' then settled.amount else 0 end as refunded_now
        ), restated as (
          -- Its day's totals (the merchant's and its customer's) move to the refund state it is in now.
          insert into payment_daily_totals as t (merchant_id, customer_id, day, status, refund_state, currency,
                                                 count, volume)
          select ${merchantId}::bigint, scope, (moved.created_at at time zone 'UTC')::date, moved.status,
                 state.refund_state, moved.currency, state.count, state.count * moved.amount
          from moved,
               lateral (values (''), (nullif(moved.customer_id, ''))) as scopes (scope),
               lateral (values (${refundStateOf(sql`moved.refunded_before`)}, -1),
                               (${refundStateOf(sql`moved.amount_refunded`)}, 1)) as state (refund_state, count)
          where scope is not null and moved.refunded_now > 0
            and ${refundStateOf(sql`moved.refunded_before`)} <> ${refundStateOf(sql`moved.amount_refunded`)}
          order by 2, 5
          on conflict (merchant_id, customer_id, day, status, refund_state, currency)
            do update set count = t.count + excluded.count, volume = t.volume + excluded.volume
        ), ${refundPostingCtes(
          "failure",
          "refund_failure",
          sql`(select ${merchantId}::bigint as merchant_id, id, currency, amount from settled
               where status = 'failed') as failed`,
        )}`,
        from: sql`settled`,
        returning: sql`${sql.raw(
          "settled.id, settled.payment_id, settled.amount, settled.currency, settled.status, settled.reason, settled.external_id, " +
            "settled.failure_reason, settled.created_at, settled.settled_at",
        )}`,
      },
    }),
  );
  // Its customer's refunded sum, after the daily totals (as a payment's settlement takes them, so the two
  // never wait on each other in opposite orders), then the day's refunded total (the Overview's): separate
  // statements, in this order, as a statement's CTEs run in no order.
  if (row?.status === "succeeded") {
    await selectRows(
      db,
      sql`insert into customer_volumes as c (merchant_id, customer_id, currency, refunded)
          select p.merchant_id, p.customer_id, p.currency, ${row.amount}::numeric
          from payments p
          where p.merchant_id = ${merchantId} and p.id = ${row.payment_id} and p.customer_id <> ''
          on conflict (merchant_id, customer_id, currency) do update set refunded = c.refunded + excluded.refunded`,
    );
    // now(): the transaction's time, which the update above set as settled_at.
    await selectRows(
      db,
      sql`insert into refund_daily_totals as t (merchant_id, day, currency, count, amount)
          values (${merchantId}, (now() at time zone 'UTC')::date, ${row.currency}, 1, ${row.amount}::numeric)
          on conflict (merchant_id, day, currency) do update set count = t.count + 1, amount = t.amount + excluded.amount`,
    );
  }
  if (row) await recountRefund(db, merchantId, Number(row.id), row.status);
  return row ?? null;
}

/**
 * The refunds list's daily counts (the merchant's and the customer's) move the refund from pending to its
 * outcome: after the payment's totals, in the order every writer takes them.
 */
async function recountRefund(db: Transaction, merchantId: number, refundId: number, outcome: string) {
  await selectRows(
    db,
    sql`insert into refund_daily_counts as t (merchant_id, customer_id, day, status, count)
        select merchant_id, scope, (created_at at time zone 'UTC')::date, change.status, change.count
        from refunds,
             lateral (values (''), (nullif(customer_id, ''))) as scopes (scope),
             lateral (values ('pending', -1), (${outcome}::text, 1)) as change (status, count)
        where merchant_id = ${merchantId} and id = ${refundId} and scope is not null
        order by 2, 4
        on conflict (merchant_id, customer_id, day, status) do update set count = t.count + excluded.count`,
  );
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
  const settled = await onceMoreOnConflict(() =>
    db.transaction((tx) => transitionRefund(tx, refundId, settlement, owner)),
  );
  if (settled) return toRefundResource(settled);
  const [now] = await selectRows<{ status: string }>(
    db,
    sql`select status from refunds where id = ${refundId} and merchant_id = ${owner}`,
  );
  throw new DomainError(
    "conflict",
    `Refund ${refundId} is already ${now?.status ?? "settled"}; succeeded and failed are final.`,
  );
}

/** The simulator's automatic settlement: refunds whose settle_at has passed, a batch at a time. */
export async function settleDueRefunds(db: Executor, limit = 100): Promise<number> {
  const isDue = sql`status = 'pending' and settle_at <= now()`;
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
