import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import type { PaymentMethod } from "@/db/schema";
import { feeSql, paymentPostingCtes, postingDone } from "@/lib/ledger/postings";
import { publicId } from "@/lib/platform/ids";
import { eventStatement } from "./outbox";
import type { Settlement } from "./processor";
import { settledPaymentJson } from "./resource";
import type { TransitionedRow } from "./settled";

// The statements that move a payment out of pending (lib/payments/settlement.ts says who calls them, when).

/** A settlement decided at the checkout page: with the card the payer paid (or was declined) with. */
export type PayerSettlement = Settlement & { paymentMethod: PaymentMethod };

export type Decision = { paymentId: number | string; settlement: Settlement | PayerSettlement };

/**
 * The one transition, with its money, as CTEs: `moved` updates the decided payments that are still pending
 * (`UPDATE … WHERE status = 'pending'`) and returns them (TransitionedRow), and the `payment_*` CTEs post each
 * completed one's amount, fee and net on the ledger (paymentPostingCtes). Concurrent settles of one payment give
 * exactly one transition, one posting and one event. `merchantId` scopes it to its owner, and names the shard
 * it touches (docs/scaling.md).
 */
function transitionCtes(decisions: readonly Decision[], merchantId: number): SQL {
  const decided = decisions.map(({ paymentId, settlement }) => {
    const card = "paymentMethod" in settlement ? JSON.stringify(settlement.paymentMethod) : null;
    return sql`(${paymentId}::bigint, ${settlement.outcome}::text, ${settlement.failureCode}::text,
                ${settlement.failureReason}::text, ${card}::json)`;
  });
  // At the merchant's price (its row is read, not locked: UPDATE … FROM locks only the payment).
  const fee = feeSql(sql`p.amount`, sql`p.currency`, sql`m.fee_percent`, sql`m.fee_fixed`);
  return sql`decided (id, status, failure_code, failure_reason, payment_method) as (
          values ${sql.join(decided, sql`, `)}),
        moved as (
          update payments p set status = d.status, failure_reason = d.failure_reason,
                 failure_code = d.failure_code, settled_at = now(), updated_at = now(),
                 payment_method = coalesce(d.payment_method, p.payment_method),
                 fee = case when d.status = 'completed' then ${fee} end,
                 net = case when d.status = 'completed' then p.amount - ${fee} end
          from decided d, merchants m
          where p.merchant_id = ${merchantId} and p.id = d.id and p.status = 'pending' and m.id = p.merchant_id
          returning p.id, p.merchant_id, p.external_id, p.status, p.amount, p.currency, p.metadata, p.created_at,
                    p.payment_method, p.customer_id, p.failure_code, p.failure_reason, p.fee, p.net,
                    p.settled_at),
        ${paymentPostingCtes(sql`moved`)}`;
}

/** A batch's transition (transitionCtes): the moved rows; their events and rollups follow (recordSettled). */
export async function transition(
  tx: Transaction,
  decisions: readonly Decision[],
  merchantId: number,
): Promise<TransitionedRow[]> {
  if (decisions.length === 0) return [];
  return selectRows<TransitionedRow>(
    tx,
    sql`with ${transitionCtes(decisions, merchantId)} select * from moved`,
  );
}

/**
 * One payment's whole settle as one statement, so one round trip and no transaction of its own: the
 * transition and its posting, then its event (with its hour's count and deliveries), then its rollups (its
 * day's totals, its customer's volume; moveRollups' rows). Each part reads what the one before it wrote, so
 * they lock rows in the settler's order (payment, ledger, event count, day's totals, customer), and neither
 * can wait on the other in a cycle. The moved row, or none when it was no longer pending (or not the
 * merchant's).
 */
function settleOneStatement(paymentId: number, settlement: Settlement | PayerSettlement, merchantId: number) {
  return eventStatement({
    id: publicId("evt"),
    merchantId,
    type: `payment.${settlement.outcome}`,
    paymentId: sql`moved.id`,
    data: settledPaymentJson("moved"),
    after: {
      ctes: sql`${transitionCtes([{ paymentId, settlement }], merchantId)}, ${postingDone("payment")}`,
      from: sql`moved, payment_done`,
      returning: sql`moved.*`,
      then: sql`day_moved as (
          insert into payment_daily_totals as t (merchant_id, customer_id, day, status, currency, count, volume)
          select moved.merchant_id, scope, (moved.created_at at time zone 'UTC')::date, move.status,
                 moved.currency, move.count, move.count * moved.amount
          from moved, recorded,
               lateral (values (''), (nullif(moved.customer_id, ''))) as scopes (scope),
               lateral (values ('pending', -1), (moved.status, 1)) as move (status, count)
          where scope is not null
          order by scope, move.status
          on conflict (merchant_id, customer_id, day, status, refund_state, currency) do update
            set count = t.count + excluded.count, volume = t.volume + excluded.volume
          returning 1),
        customer_moved as (
          insert into customer_volumes as c (merchant_id, customer_id, currency, completed)
          select moved.merchant_id, moved.customer_id, moved.currency, moved.amount
          from moved, (select count(*) from day_moved) as totals
          where moved.status = 'completed' and moved.customer_id <> ''
          on conflict (merchant_id, customer_id, currency) do update set completed = c.completed + excluded.completed)`,
    },
  });
}

/**
 * Settles one payment of `merchantId` (settleOneStatement), in the caller's transaction when `db` is one: its
 * row, or undefined when it was no longer pending (or not the merchant's).
 */
export async function settleOne(
  db: Executor,
  paymentId: number,
  settlement: Settlement | PayerSettlement,
  merchantId: number,
): Promise<TransitionedRow | undefined> {
  const [row] = await selectRows<TransitionedRow>(db, settleOneStatement(paymentId, settlement, merchantId));
  return row;
}
