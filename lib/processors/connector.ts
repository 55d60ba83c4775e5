import "server-only";
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import type { ConnectedProcessor, PaymentFailureCode } from "@/db/enums";
import { withDeadline } from "@/lib/platform/deadline";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/logger";
import { PROCESSOR_NAMES } from "./names";

// The one narrow interface to a real processor (DESIGN.md, "Processors"): what this platform asks of Mollie or
// Stripe, each through its official library (mollie.ts, stripe.ts). Everything above it speaks only these types.

/** A payment to make at the processor: the payer pays on its hosted page, then comes back to `returnUrl`. */
export type HostedPaymentRequest = {
  /** In the currency's minor units as this platform writes amounts ("12.50", "1500" JPY). */
  amount: string;
  currency: string;
  description: string;
  /** The platform's reference for it, shown in the processor's dashboard. */
  reference: string;
  returnUrl: string;
  /** Where the processor reports a change (Mollie takes it per payment; Stripe's endpoint is made at connection). */
  webhookUrl: string;
  /** The same key for every attempt at this payment, so a retried call never makes a second one. */
  idempotencyKey: string;
};

export type HostedPayment = { id: string; hostedUrl: string };

/** Where a processor's payment stands, read from the processor itself (never from a webhook's body). */
export type ProcessorOutcome =
  | { state: "pending" }
  /** `fee`: what the processor took, as it reports it, in the payment's currency ("0.54"); null if not yet known. */
  | { state: "completed"; fee: string | null }
  | { state: "failed"; failureCode: PaymentFailureCode; failureReason: string };

/** Part or all of a paid processor payment, to give back (its processor's own refund). */
export type RefundRequest = {
  processorPaymentId: string;
  /** In the currency's minor units as this platform writes amounts, as HostedPaymentRequest's. */
  amount: string;
  currency: string;
  /** The platform's reference for it, shown in the processor's dashboard. */
  reference: string;
  /** The same key for every attempt at this refund, so a retried call never gives the money back twice. */
  idempotencyKey: string;
};

/** Where a processor's refund stands, read from the processor itself. */
export type ProcessorRefundOutcome =
  { state: "pending" } | { state: "succeeded" } | { state: "failed"; failureReason: string };

export type Connector = {
  processor: ConnectedProcessor;
  /** Whether the processor takes the key: resolves, or throws a 422 naming `key` with the processor's reason. */
  verifyKey(): Promise<void>;
  createPayment(request: HostedPaymentRequest): Promise<HostedPayment>;
  paymentOutcome(processorPaymentId: string): Promise<ProcessorOutcome>;
  /** The refund made at the processor (or the one an earlier attempt under the same key made), where it stands. */
  createRefund(request: RefundRequest): Promise<{ id: string; outcome: ProcessorRefundOutcome }>;
  refundOutcome(processorPaymentId: string, processorRefundId: string): Promise<ProcessorRefundOutcome>;
};

/** The processor refused what was asked of it for a reason of the request's own (not an outage). */
export class ProcessorRefusal extends Error {
  constructor(
    readonly field: "key" | "amount" | "currency" | "refund",
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The merchant's answer when a processor is down, slow or refuses: 503 with Retry-After; nothing was made. */
export function processorUnavailable(processor: ConnectedProcessor): DomainError {
  return new DomainError(
    "unavailable",
    `${PROCESSOR_NAMES[processor]} did not answer in time or could not take the request; nothing was made. Try again in a few seconds.`,
  );
}

/**
 * Every call to a processor: bounded by PROCESSOR_TIMEOUT; a refusal of the request's own (`refusalOf` reads the
 * library's errors) becomes a 422 on its field; anything else (the network, a 5xx, HTML, an undocumented body, the timeout) a 503. Only the kind of
 * failure is logged: a processor's raw error may quote the request, and never the key.
 */
export async function callProcessor<T>(
  processor: ConnectedProcessor,
  action: string,
  call: () => Promise<T>,
  /** The library's error as a refusal of the request's own (ProcessorRefusal), or as it is. */
  refusalOf: (error: unknown) => unknown,
): Promise<T> {
  const timedOut = Symbol("timed out");
  let outcome: T | typeof timedOut;
  try {
    outcome = await withDeadline<T | typeof timedOut>(call(), getEnv().PROCESSOR_TIMEOUT, () => timedOut);
  } catch (thrown) {
    const error = refusalOf(thrown);
    if (error instanceof ProcessorRefusal) throw validationError({ [error.field]: [error.reason] });
    logger.warn({ processor, action, failure: failureKind(error) }, "A processor call failed");
    throw processorUnavailable(processor);
  }
  if (outcome === timedOut) {
    logger.warn({ processor, action, failure: "timeout" }, "A processor call failed");
    throw processorUnavailable(processor);
  }
  return outcome;
}

/** An error's class and HTTP status, which say what went wrong without quoting anything. */
function failureKind(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === "number" ? `${error.constructor.name} ${status}` : error.constructor.name;
}

/** The trust the libraries use where they allow one: the system's roots plus PROCESSOR_CA_FILE, if set. */
export function extraCertificateAuthority(): string | undefined {
  const file = getEnv().PROCESSOR_CA_FILE;
  return file ? readFileSync(file, "utf8") : undefined;
}

export function trustedAuthorities(): string[] {
  const extra = extraCertificateAuthority();
  return extra ? [...rootCertificates, extra] : [...rootCertificates];
}

/** A processor's words for a refusal, with anything that looks like a key masked: they are shown to people. */
export function withoutKeys(words: string): string {
  return words.replace(/\b(sk|rk|pk)_(test|live)_[A-Za-z0-9*]+|\b(test|live)_[A-Za-z0-9]{8,}/g, (key) =>
    key.length > 4 ? `…${key.slice(-4)}` : key,
  );
}
