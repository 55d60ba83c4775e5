import type { Payments } from "@payments-platform/sdk";
import { CliError, emit, EXIT, failureSuffix } from "./output.js";

/** The events `trigger` causes; `payment.canceled` cancels a pending payment (its event is payment.failed). */
export const TRIGGERS = [
  "payment.pending",
  "payment.completed",
  "payment.failed",
  "payment.canceled",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/**
 * Creates real objects through the API and drives them to the state named, with the simulator's test
 * helpers: the events that follow are the ones a real payment would send.
 */
export async function trigger(
  client: Payments,
  name: string,
  options: { amount?: string; json?: boolean },
): Promise<void> {
  if (!(TRIGGERS as readonly string[]).includes(name))
    throw new CliError(`Unknown event ${name}. One of: ${TRIGGERS.join(", ")}.`, EXIT.usage);
  const amount = options.amount ?? "10.00";
  const payment = await client.payments.create({ amount, external_id: `cli_trigger_${Date.now()}` });
  const steps: string[] = [`payment ${payment.id} created (${payment.amount}, pending)`];
  let refundId: number | null = null;
  if (name === "payment.canceled") {
    const canceled = await client.payments.cancel(payment.id);
    steps.push(`payment ${payment.id} canceled, failed${failureSuffix(canceled)}`);
  } else if (name !== "payment.pending") {
    const outcome = name === "payment.failed" ? "failed" : "completed";
    const settled = await client.testHelpers.settlePayment(payment.id, outcome);
    steps.push(`payment ${payment.id} ${outcome}${failureSuffix(settled)}`);
  }
  if (name.startsWith("refund.")) {
    const refund = await client.refunds.create(payment.id, { reason: "requested_by_customer" });
    refundId = refund.id;
    steps.push(`refund ${refund.id} of ${refund.amount} created (pending)`);
    if (name !== "refund.created") {
      const outcome = name === "refund.failed" ? "failed" : "succeeded";
      await client.testHelpers.settleRefund(refund.id, outcome);
      steps.push(`refund ${refund.id} ${outcome}`);
    }
  }
  emit(
    options.json === true,
    { type: "triggered", event: name, payment_id: payment.id, refund_id: refundId },
    steps.map((step) => `Trigger succeeded: ${step}`).join("\n"),
  );
}
