import { PaymentsApiError, type Payments } from "@payments-platform/sdk";
import { CliError, emit, EXIT, timestamp } from "./output.js";

const PROCESSORS: Record<string, string> = { simulator: "the simulator", mollie: "Mollie", stripe: "Stripe" };

/** A payment id as the API and the dashboard show it: digits. */
export function parsePaymentId(value: string): number {
  if (!/^[1-9]\d{0,17}$/.test(value))
    throw new CliError(`${value} is not a payment id (digits, e.g. 12).`, EXIT.usage);
  return Number(value);
}

/** `payments payments show <id>`: one payment as GET /api/payments/{id} has it, and who takes it. */
export async function showPayment(client: Payments, id: number, options: { json?: boolean }): Promise<void> {
  const payment = await client.payments.retrieve(id).catch((error: unknown) => {
    if (error instanceof PaymentsApiError && (error.status === 404 || error.status === 403))
      throw new CliError(`No payment ${id} exists on this account.`, EXIT.refused);
    throw error;
  });
  const taken = payment.processor_payment_id
    ? `Taken by ${PROCESSORS[payment.processor] ?? payment.processor}: ${payment.processor_payment_id}`
    : `Taken by ${PROCESSORS[payment.processor] ?? payment.processor}`;
  emit(
    options.json === true,
    { ...payment },
    [
      `Payment ${payment.id}  ${payment.status}  ${payment.amount} ${payment.currency}  ${payment.external_id ?? ""}`.trimEnd(),
      `Created ${timestamp(payment.created_at)}${payment.customer_id ? `, customer ${payment.customer_id}` : ""}`,
      taken,
      ...(payment.fee !== null
        ? [`Fee ${payment.fee}, net ${payment.net}, refunded ${payment.amount_refunded}`]
        : []),
      ...(payment.failure_code ? [`Failed: ${payment.failure_reason ?? ""} (${payment.failure_code})`] : []),
      ...(payment.checkout_url ? [`Pay at ${payment.checkout_url}`] : []),
    ].join("\n"),
  );
}
