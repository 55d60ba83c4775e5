import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { onceMoreOnConflict } from "@/db/errors";
import { refundPostingCtes } from "@/lib/ledger/postings";
import { amountRefusal, inMinorUnits } from "@/lib/money/amount";
import { requestHash, runOnceForKey, sameAmount } from "@/lib/payments/idempotency";
import { eventStatement } from "@/lib/payments/outbox";
import { validationError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { unownedRowError } from "@/lib/platform/ownership";
import { messages, parseInput } from "@/lib/platform/validation";
import { refundResourceJson, toRefundResource, type RefundRow } from "./resource";
import { createRefundSchema, type CreateRefundInput, type RefundResource } from "./schemas";

/** The 422 on `payment` for a payment that is not completed (DESIGN.md). */
export const NOT_REFUNDABLE = "Only a completed payment can be refunded.";
export const NOTHING_LEFT = "This payment has nothing left to refund.";
/** A payment of 0 (DESIGN.md, "Zero"): nothing moved, so there is nothing to give back. */
export const NOTHING_TO_REFUND = "There is nothing to refund.";

export type CreateRefundOptions = {
  /** Delay before the simulated processor settles it; 0 leaves it pending until settled by hand. */
  autoSettleMs: number;
  idempotencyKey?: string;
};

/**
 * The refund, the payment's pending sum, and the `refund.created` event with its deliveries, in one
 * statement. `locked` takes the payment's row lock (FOR UPDATE reads the latest committed version), so the
 * refundable amount is checked and reserved under it: concurrent refunds queue on the row and can never
 * pass the payment's amount. An amount left out is everything refundable at that moment. No row when
 * the payment is not this merchant's, not completed, or has less refundable than asked.
 */
function createRefundStatement(
  merchantId: number,
  paymentId: number,
  input: CreateRefundInput,
  autoSettleMs: number,
) {
  return eventStatement({
    id: publicId("evt"),
    merchantId,
    type: "refund.created",
    paymentId,
    data: refundResourceJson("inserted"),
    after: {
      ctes: sql`
      locked as (
        -- An amount with more decimals than the payment's currency has matches nothing (explained below);
        -- one with fewer is written out to the currency's (0.5 KWD is 0.500), as the payment's own amount is.
        select id, customer_id, currency,
               round(coalesce(${input.amount ?? null}::numeric, amount - amount_refunded - amount_refund_pending),
                     scale(amount)) as refund,
               amount - amount_refunded - amount_refund_pending as refundable,
               coalesce(scale(${input.amount ?? null}::numeric) <= scale(amount), true) as fits
        from payments
        where id = ${paymentId} and merchant_id = ${merchantId} and status = 'completed'
          -- Read in the row this locks (a dispute moves it under the same lock): none while disputed.
          and (dispute_status is null or dispute_status in ('won', 'warning_closed'))
        for update
      ), reserved as (
        update payments p set amount_refund_pending = p.amount_refund_pending + locked.refund, updated_at = now()
        from locked
        where p.merchant_id = ${merchantId} and p.id = locked.id
          and locked.fits and locked.refund > 0 and locked.refund <= locked.refundable
        returning p.id, p.customer_id, p.currency, locked.refund
      ), inserted as (
        insert into refunds (merchant_id, payment_id, customer_id, amount, currency, reason, external_id, settle_at)
        select ${merchantId}::bigint, reserved.id, reserved.customer_id, reserved.refund, reserved.currency,
               ${input.reason}::text,
               ${input.external_id}::text,
               case when ${autoSettleMs}::int > 0 then now() + ${autoSettleMs}::int * interval '1 millisecond' end
        from reserved
        returning *
      ), day_counted as (
        -- Its day's count, the merchant's and its customer's (the refunds list's totals), after the payment's lock.
        insert into refund_daily_counts as t (merchant_id, customer_id, day, status, count)
        select inserted.merchant_id, scope, (inserted.created_at at time zone 'UTC')::date, inserted.status, 1
        from inserted, lateral (values (''), (nullif(inserted.customer_id, ''))) as scopes (scope)
        where scope is not null
        order by 2
        on conflict (merchant_id, customer_id, day, status) do update set count = t.count + 1
      ), ${refundPostingCtes("refund", "refund", sql`inserted`)}`,
      from: sql`inserted`,
      returning: sql`${sql.raw(
        "inserted.id, inserted.payment_id, inserted.amount, inserted.currency, inserted.status, inserted.reason, " +
          "inserted.external_id, inserted.failure_reason, inserted.created_at, inserted.settled_at",
      )}`,
    },
  });
}

/** Why no refund was made: the payment's state as it is now, in the API's words. */
async function explainRefusal(db: Executor, merchantId: number, paymentId: number, amount?: string) {
  const [payment] = await selectRows<{
    merchant_id: string | number;
    status: string;
    currency: string;
    refundable: string;
    disputed: boolean;
    zero: boolean;
  }>(
    db,
    sql`select merchant_id, status, currency, (amount - amount_refunded - amount_refund_pending)::text as refundable,
               coalesce(dispute_status not in ('won', 'warning_closed'), false) as disputed, amount = 0 as zero
        from payments where merchant_id = ${merchantId} and id = ${paymentId}`,
  );
  if (!payment) return unownedRowError(db, "payments", paymentId, merchantId);
  if (payment.status !== "completed") return validationError({ payment: [NOT_REFUNDABLE] });
  if (payment.zero) return validationError({ amount: [NOTHING_TO_REFUND] });
  if (payment.disputed) return validationError({ payment: ["A disputed payment cannot be refunded."] });
  const refusal = amount === undefined ? null : amountRefusal(amount, payment.currency);
  if (refusal) return validationError({ amount: [refusal] });
  if (!/[1-9]/.test(payment.refundable)) return validationError({ payment: [NOTHING_LEFT] });
  const refundable = inMinorUnits(payment.refundable, payment.currency);
  return validationError({ amount: [messages.max("amount", refundable)] });
}

/** The refund as made now, or the id a replayed key made earlier (read it when needed). */
export type CreateRefundResult = { refundId: number; replayed: boolean; refund?: RefundResource };

/**
 * Refunds part or all of a completed payment. The one creation path behind the API, the dashboard and the
 * CLI; nothing is written when it is refused.
 */
export async function createRefund(
  db: Executor,
  merchantId: number,
  paymentId: number,
  body: unknown,
  options: CreateRefundOptions,
): Promise<CreateRefundResult> {
  const input = parseInput(createRefundSchema, body);
  let refund: RefundResource | undefined;
  const create = async (executor: Executor) => {
    const [row] = await selectRows<RefundRow>(
      executor,
      createRefundStatement(merchantId, paymentId, input, options.autoSettleMs),
    );
    if (!row) throw await explainRefusal(executor, merchantId, paymentId, input.amount);
    refund = toRefundResource(row);
    return refund.id;
  };
  const { idempotencyKey } = options;
  if (idempotencyKey === undefined) {
    const refundId = await onceMoreOnConflict(() => create(db));
    return { refundId, replayed: false, refund };
  }
  const { id, replayed } = await onceMoreOnConflict(() =>
    runOnceForKey(
      db,
      merchantId,
      idempotencyKey,
      {
        target: "refund",
        hash: requestHash({ refund_of: paymentId, ...input, amount: sameAmount(input.amount) }),
      },
      create,
    ),
  );
  return { refundId: id, replayed, refund: replayed ? undefined : refund };
}
