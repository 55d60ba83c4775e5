import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { feeSql, paymentPostingCtes } from "@/lib/ledger/postings";
import { getEnv } from "@/lib/platform/env";
import { publicId } from "@/lib/platform/ids";
import type { Settlement } from "./processor";
import type { TransitionedRow } from "./settled";

// The statements that move a payment out of pending (lib/payments/settlement.ts says who calls them, when).

export type Decision = { paymentId: number | string; settlement: Settlement };

/**
 * The one transition, with its money, as CTEs: `moved` updates the decided payments that are still pending
 * (`UPDATE … WHERE status = 'pending'`) and returns them (TransitionedRow), and the `payment_*` CTEs post each
 * completed one's amount, fee and net on the ledger (paymentPostingCtes). Concurrent settles of one payment give
 * exactly one transition, one posting and one event. `merchantId` scopes it to its owner, and names the shard
 * it touches (docs/scaling.md).
 */
function transitionCtes(decisions: readonly Decision[], merchantId: number): SQL {
  const decided = decisions.map(
    ({ paymentId, settlement }) =>
      sql`(${paymentId}::bigint, ${settlement.outcome}::text, ${settlement.failureCode}::text,
           ${settlement.failureReason}::text)`,
  );
  // At the merchant's price and time (a sandbox's test clock); its row is read, not locked: UPDATE … FROM locks
  // only the payment.
  const fee = feeSql(sql`p.amount`, sql`p.currency`, sql`m.fee_percent`, sql`m.fee_fixed`);
  return sql`decided (id, status, failure_code, failure_reason) as (
          values ${sql.join(decided, sql`, `)}),
        moved as (
          update payments p set status = d.status, failure_reason = d.failure_reason,
                 failure_code = d.failure_code, settled_at = merchant_now(${merchantId}::bigint),
                 updated_at = merchant_now(${merchantId}::bigint),
                 fee = case when d.status = 'completed' then ${fee} end,
                 net = case when d.status = 'completed' then p.amount - ${fee} end
          from decided d, merchants m
          where p.merchant_id = ${merchantId} and p.id = d.id and p.status = 'pending' and m.id = p.merchant_id
            and p.processor = 'simulator'
          returning p.id, p.merchant_id, p.external_id, p.status, p.amount, p.currency, p.metadata, p.created_at,
                    p.payment_method, p.customer_id, p.failure_code, p.failure_reason, p.fee, p.net,
                    p.processor, p.processor_payment_id, p.settled_at),
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
 * One payment's whole settle as one call of the database's `settle_payment` (db/functions/payments.sql: the
 * transition and its posting, its event with deliveries, then its rollups, top to bottom), so one round trip,
 * and on Citus one call the coordinator hands to the merchant's worker. In the caller's transaction when `db`
 * is one: the moved row, or undefined when it was no longer pending (or not the merchant's). A processor's
 * payment moves only `byProcessor` (on what the processor answered), with the fee it reports (`processorFee`).
 */
export async function settleOne(
  db: Executor,
  paymentId: number,
  settlement: Settlement,
  merchantId: number,
  processorFee: string | null = null,
  byProcessor = false,
): Promise<TransitionedRow | undefined> {
  const [row] = await selectRows<{ settled: TransitionedRow | null }>(
    db,
    sql`select settle_payment(${merchantId}::bigint, ${paymentId}::bigint, ${publicId("evt")}::text,
      ${settlement.outcome}::text, ${settlement.failureCode}::text, ${settlement.failureReason}::text,
      null::json, ${getEnv().BALANCE_AVAILABLE_AFTER}::bigint, ${!onCitus()}::boolean,
      ${processorFee}::numeric, ${byProcessor}::boolean) as settled`,
  );
  return row?.settled ?? undefined;
}
