import "server-only";
import { sql } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor } from "@/db/client";
import type { Processor } from "@/db/enums";
import { isIdempotencyKeyReused, isWriteRefused, onceMoreOnConflict } from "@/db/errors";
import { amountRefusal, inMinorUnits } from "@/lib/money/amount";
import { IDEMPOTENCY_KEY_REUSED, keyCutoff, requestHash, sameAmount } from "@/lib/payments/idempotency";
import { DomainError, validationError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { unownedRowError } from "@/lib/platform/ownership";
import { messages, parseInput } from "@/lib/platform/validation";
import { toRefundResource, type RefundRow } from "./resource";
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
  /**
   * Sends a processor's payment's refund to its processor (lib/processors/refunds.ts, handed in by the caller):
   * the refund as that settled it, or null while it stays pending.
   */
  atProcessor?: (refundId: number) => Promise<RefundRow | null>;
};

/**
 * The whole refund as one call of the database's `create_refund` (db/functions/refunds.sql): the key's claim,
 * the payment's row lock under which what is refundable is checked and reserved (concurrent refunds queue on
 * it and never pass its amount), the refund, its day's counts, its money, and `refund.created` with its
 * deliveries. A refusal is SQLSTATE PA422 (nothing written, the key's claim undone with it; explainRefusal
 * says why). Exported for the Citus router test.
 */
export function createRefundCall(
  merchantId: number,
  paymentId: number,
  input: CreateRefundInput,
  autoSettleMs: number,
  key: { key: string; hash: string } | null,
) {
  return sql`select create_refund(${merchantId}::bigint, ${paymentId}::bigint, ${publicId("evt")}::text,
    ${input.amount ?? null}::numeric, ${input.reason}::text, ${input.external_id}::text, ${autoSettleMs}::int,
    ${!onCitus()}::boolean, ${key?.key ?? null}::text, ${key?.hash ?? null}::text,
    ${keyCutoff()}::timestamptz) as made`;
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
  const { idempotencyKey } = options;
  const key =
    idempotencyKey === undefined
      ? null
      : {
          key: idempotencyKey,
          hash: requestHash({ refund_of: paymentId, ...input, amount: sameAmount(input.amount) }),
        };
  const [row] = await onceMoreOnConflict(() =>
    selectRows<{
      made: { id: number | string; replayed: boolean; refund?: RefundRow; processor?: Processor };
    }>(db, createRefundCall(merchantId, paymentId, input, options.autoSettleMs, key)).catch(
      async (error: unknown) => {
        if (isIdempotencyKeyReused(error)) throw new DomainError("conflict", IDEMPOTENCY_KEY_REUSED);
        if (isWriteRefused(error)) throw await explainRefusal(db, merchantId, paymentId, input.amount);
        throw error;
      },
    ),
  );
  const { id, replayed, refund, processor } = row!.made;
  const refundId = Number(id);
  // A processor's payment's refund is sent there now (DESIGN.md, "Processors"); one the processor cannot take
  // now stays pending, and the reconciler sends it. The answer is the refund as that left it.
  const atProcessor = processor && processor !== "simulator" ? options.atProcessor : undefined;
  const settled = atProcessor ? await atProcessor(refundId) : null;
  const answer = settled ?? refund;
  return { refundId, replayed, refund: answer && toRefundResource(answer) };
}
