import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { withDecimals } from "@/lib/money/amount";
import { minorUnits } from "@/lib/money/currencies";
import { checkoutUrl } from "@/lib/payments/checkout-token";
import type { HostedPayment, PaymentAtProcessor } from "@/lib/payments/create-payment";
import { settleOne } from "@/lib/payments/transition";
import { connectorFor, processorWebhookUrl, type ProcessorConnection } from "./connections";

// A payment's life at a processor (DESIGN.md, "Processors"): made there before it is written here, and moved
// from pending only by what the processor itself answers when asked.

/**
 * How a payment is made at the environment's processor (createPayment's `atProcessor`). Under the merchant's
 * Idempotency-Key, the processor's own key and every field it is sent come out the same on a retry, so the
 * processor replays its first payment instead of making a second; without one, each request is its own.
 */
export function paymentsAtProcessor(
  connection: ProcessorConnection,
  merchantId: number,
): (payment: PaymentAtProcessor) => Promise<HostedPayment> {
  const connector = connectorFor(connection.processor, connection.key);
  return async (payment) => {
    const seed = payment.idempotencyKey ?? randomUUID();
    const key = createHash("sha256").update(`payment:${merchantId}:${seed}`).digest("hex");
    const reference = `ref_${key.slice(0, 24)}`;
    const made = await connector.createPayment({
      amount: withDecimals(payment.amount, minorUnits(payment.currency)),
      currency: payment.currency,
      description: payment.externalId ? `Order ${payment.externalId}` : `Payment ${reference}`,
      reference,
      returnUrl: checkoutUrl(payment.checkoutToken),
      webhookUrl: processorWebhookUrl(connection.processor, merchantId),
      idempotencyKey: key,
    });
    return { processor: connection.processor, id: made.id, hostedUrl: made.hostedUrl };
  };
}

/** What a processor-side change did here: a transition, nothing (still pending, or already final), or unknown. */
export type SyncResult = "completed" | "failed" | "pending" | "final" | "unknown";

/**
 * Asks the processor where one of this environment's payments stands, and makes the one transition it calls
 * for (settle_payment: concurrent calls give one, with the same events as a simulated payment). The id is the
 * processor's; one this environment never made is "unknown", and nothing is asked.
 */
export async function syncProcessorPayment(
  db: Executor,
  merchantId: number,
  connection: ProcessorConnection,
  processorPaymentId: string,
): Promise<SyncResult> {
  const [payment] = await selectRows<{ id: number | string; status: string }>(
    db,
    sql`select id, status from payments
        where merchant_id = ${merchantId} and processor_payment_id = ${processorPaymentId}
          and processor = ${connection.processor}`,
  );
  if (!payment) return "unknown";
  if (payment.status !== "pending") return "final";
  const outcome = await connectorFor(connection.processor, connection.key).paymentOutcome(processorPaymentId);
  if (outcome.state === "pending") return "pending";
  const settlement =
    outcome.state === "completed"
      ? { outcome: "completed" as const, failureCode: null, failureReason: null }
      : {
          outcome: "failed" as const,
          failureCode: outcome.failureCode,
          failureReason: outcome.failureReason,
        };
  // The processor's fee, never the platform's price; one it does not report reads 0 (docs/processors.md, "Money").
  const fee = outcome.state === "completed" ? (outcome.fee ?? "0") : null;
  const moved = await settleOne(db, Number(payment.id), settlement, merchantId, fee, true);
  return moved ? outcome.state : "final";
}
