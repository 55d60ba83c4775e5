import { PaymentsApiError, type Dispute, type Payments } from "@payments-platform/sdk";
import { CliError, emit, EXIT, failureSuffix, timestamp } from "./output.js";

/** The events `trigger` causes; `payment.canceled` cancels a pending payment (its event is payment.failed). */
export const TRIGGERS = [
  "payment.pending",
  "payment.completed",
  "payment.failed",
  "payment.canceled",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
  "dispute.created",
] as const;
export type Trigger = (typeof TRIGGERS)[number];

export type TriggerOptions = {
  amount?: string;
  currency?: string;
  customer?: string;
  /** `key=value` pairs from repeated --metadata flags. */
  metadata?: string[];
  returnUrl?: string;
  json?: boolean;
};

/** Repeated `--metadata key=value` as an object; the API checks the limits (20 keys, 40 and 500 characters). */
export function parseMetadata(pairs: string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const metadata: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0)
      throw new CliError(`--metadata takes key=value, e.g. --metadata order=1042 (got ${pair}).`, EXIT.usage);
    const key = pair.slice(0, equals);
    // A key given twice is a typo more often than an intent: say so rather than keep one silently.
    if (key in metadata) throw new CliError(`--metadata ${key} is given twice.`, EXIT.usage);
    metadata[key] = pair.slice(equals + 1);
  }
  return metadata;
}

/**
 * Settles a payment or refund with the simulator's test helper. The simulator settles on its own too, after
 * a moment (PAYMENTS_AUTO_SETTLE_MS): when it got there first, the helper's 409 is no failure if the object
 * already is in the state asked for, and is reported as it came otherwise.
 */
async function settledAs<T extends { status: string }>(
  settle: () => Promise<T>,
  retrieve: () => Promise<T>,
  outcome: string,
): Promise<T> {
  try {
    return await settle();
  } catch (error) {
    if (!(error instanceof PaymentsApiError && error.status === 409)) throw error;
    const current = await retrieve();
    if (current.status !== outcome) throw error;
    return current;
  }
}

/** What a dispute took from the balance, as its `dispute` balance transaction has it, unsigned. */
type DisputeWithdrawal = { disputed: string; fee: string; withdrawn: string };

const unsigned = (amount: string) => amount.replace(/^-/, "");

/**
 * The dispute's withdrawal as the API booked it: its amount plus the dispute fee (15.00, 1500 JPY,
 * 15.000 KWD), from the balance transaction of type `dispute` that opening it posted. The list is newest
 * first, so it is among the first few (others' disputes opened meanwhile aside); null if not (an inquiry
 * withdraws nothing).
 */
async function disputeWithdrawal(client: Payments, dispute: Dispute): Promise<DisputeWithdrawal | null> {
  let looked = 0;
  for await (const move of client.balanceTransactions.list({
    type: "dispute",
    currency: dispute.currency,
    perPage: 20,
  })) {
    if (move.source_id === dispute.id)
      return { disputed: unsigned(move.amount), fee: unsigned(move.fee), withdrawn: unsigned(move.net) };
    if (++looked >= 100) break;
  }
  return null;
}

/** Collects a repeatable flag's values, in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Creates real objects through the API and drives them to the state named, with the simulator's test
 * helpers: the events that follow are the ones a real payment would send.
 */
export async function trigger(client: Payments, name: string, options: TriggerOptions): Promise<void> {
  if (!(TRIGGERS as readonly string[]).includes(name))
    throw new CliError(`Unknown event ${name}. One of: ${TRIGGERS.join(", ")}.`, EXIT.usage);
  // Whole units by default: valid in every currency, JPY's included.
  const amount = options.amount ?? "10";
  const payment = await client.payments.create({
    amount,
    currency: options.currency,
    external_id: `cli_trigger_${Date.now()}`,
    customer_id: options.customer,
    metadata: parseMetadata(options.metadata ?? []),
    return_url: options.returnUrl,
  });
  // A payment left pending can be paid on its checkout page (with --return-url nothing settles it first).
  const checkoutUrl = name === "payment.pending" ? payment.checkout_url : null;
  const steps: string[] = [
    `payment ${payment.id} created (${payment.amount} ${payment.currency}, pending${checkoutUrl ? `, pay at ${checkoutUrl}` : ""})`,
  ];
  let refundId: number | null = null;
  let disputeId: number | null = null;
  if (name === "payment.canceled") {
    const canceled = await client.payments.cancel(payment.id);
    steps.push(`payment ${payment.id} canceled, failed${failureSuffix(canceled)}`);
  } else if (name !== "payment.pending") {
    const outcome = name === "payment.failed" ? "failed" : "completed";
    const settled = await settledAs(
      () => client.testHelpers.settlePayment(payment.id, outcome),
      () => client.payments.retrieve(payment.id),
      outcome,
    );
    steps.push(`payment ${payment.id} ${outcome}${failureSuffix(settled)}`);
  }
  if (name.startsWith("refund.")) {
    const refund = await client.refunds.create(payment.id, { reason: "requested_by_customer" });
    refundId = refund.id;
    steps.push(`refund ${refund.id} of ${refund.amount} ${refund.currency} created (pending)`);
    if (name !== "refund.created") {
      const outcome = name === "refund.failed" ? "failed" : "succeeded";
      await settledAs(
        () => client.testHelpers.settleRefund(refund.id, outcome),
        () => client.refunds.retrieve(refund.id),
        outcome,
      );
      steps.push(`refund ${refund.id} ${outcome}`);
    }
  }
  let withdrawal: DisputeWithdrawal | null = null;
  if (name === "dispute.created") {
    // As the dispute test cards do: the payer's bank takes the completed payment back, with the dispute fee.
    const dispute = await client.testHelpers.openDispute(payment.id, { reason: "fraudulent" });
    disputeId = dispute.id;
    withdrawal = await disputeWithdrawal(client, dispute);
    const money = withdrawal
      ? `${withdrawal.disputed} ${dispute.currency} + ${withdrawal.fee} ${dispute.currency} dispute fee = ${withdrawal.withdrawn} ${dispute.currency} withdrawn`
      : `${dispute.amount} ${dispute.currency} withdrawn`;
    steps.push(
      `dispute ${dispute.id} opened (${dispute.reason}, ${money}, evidence due by ${timestamp(dispute.evidence_due_by)})`,
    );
  }
  emit(
    options.json === true,
    {
      type: "triggered",
      event: name,
      payment_id: payment.id,
      refund_id: refundId,
      dispute_id: disputeId,
      checkout_url: checkoutUrl,
      // What the dispute took from the balance, in the payment's currency (null for any other event).
      currency: payment.currency,
      dispute_fee: withdrawal?.fee ?? null,
      withdrawn: withdrawal?.withdrawn ?? null,
    },
    steps.map((step) => `Trigger succeeded: ${step}`).join("\n"),
  );
}
