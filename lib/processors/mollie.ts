import "server-only";
import { createHash } from "node:crypto";
import {
  createMollieClient,
  MollieApiError,
  PaymentStatus,
  RefundStatus,
  type Payment,
  type Refund,
} from "@mollie/api-client";
import type { PaymentFailureCode } from "@/db/enums";
import { getEnv } from "@/lib/platform/env";
import {
  callProcessor,
  extraCertificateAuthority,
  ProcessorRefusal,
  withoutKeys,
  type Connector,
  type ProcessorOutcome,
  type ProcessorRefundOutcome,
} from "./connector";

// Mollie through its official library (@mollie/api-client): payments on Mollie's hosted checkout, whose status
// is always fetched from Mollie (its webhook carries only an id).

/** Mollie's API keys: `test_` or `live_` and 30 letters and digits (docs.mollie.com, "Authentication"). */
export const MOLLIE_KEY_SHAPE = /^(test|live)_[A-Za-z0-9]{30}$/;

/** A card's failure, as Mollie words it (`details.failureReason`), in this platform's codes. */
const CARD_FAILURES: Partial<Record<string, PaymentFailureCode>> = {
  insufficient_funds: "insufficient_funds",
  card_expired: "expired_card",
  authentication_failed: "authentication_failed",
  authentication_abandoned: "authentication_failed",
  authentication_required: "authentication_failed",
  card_declined: "card_declined",
  refused_by_issuer: "card_declined",
  inactive_card: "card_declined",
  possible_fraud: "card_declined",
};

type MollieClient = ReturnType<typeof createMollieClient>;

/**
 * Each Mollie client has its own https agent (kept alive by the patch in patches/): a new client a call would
 * open a TLS connection a call, each parsing the library's bundle of authorities again (about 18 ms of CPU). So a
 * client is kept per key and endpoint, for the last KEPT_CLIENTS used; found by their hash. It holds the key, as
 * every call does while it runs.
 */
const KEPT_CLIENTS = 64;
const clients = new Map<string, MollieClient>();

function client(key: string): MollieClient {
  const env = getEnv();
  const id = createHash("sha256").update(`${env.MOLLIE_API_URL} ${key}`).digest("hex");
  const kept = clients.get(id);
  if (kept) {
    // Used last, so kept longest: a Map iterates in insertion order.
    clients.delete(id);
    clients.set(id, kept);
    return kept;
  }
  // The library pins its own authorities; the patch in patches/ lets it trust PROCESSOR_CA_FILE's beside them.
  const made = createMollieClient({
    apiKey: key,
    apiEndpoint: env.MOLLIE_API_URL,
    caCertificates: extraCertificateAuthority(),
  });
  clients.set(id, made);
  if (clients.size > KEPT_CLIENTS) clients.delete(clients.keys().next().value!);
  return made;
}

/** A refusal that is the request's own: the key (401), or a field Mollie names (422); else an outage. */
function refusalOf(error: unknown): unknown {
  if (!(error instanceof MollieApiError)) return error;
  if (error.statusCode === 401) return new ProcessorRefusal("key", `Mollie: ${withoutKeys(error.message)}`);
  if (error.statusCode === 422 && error.field?.startsWith("amount"))
    return new ProcessorRefusal(
      error.field === "amount.currency" ? "currency" : "amount",
      "Mollie does not take this amount in this currency.",
    );
  return error;
}

/** A refund Mollie will not make (a 409 duplicate, a 422 on its amount or payment): the refund fails with its words. */
function refundRefusalOf(error: unknown): unknown {
  if (error instanceof MollieApiError && (error.statusCode === 409 || error.statusCode === 422))
    return new ProcessorRefusal("refund", `Mollie refused the refund: ${withoutKeys(error.message)}`);
  return refusalOf(error);
}

/** A refund's status: refunded succeeds; failed and canceled fail; queued, pending and processing wait. */
export function mollieRefundOutcome(refund: Refund): ProcessorRefundOutcome {
  switch (refund.status) {
    case RefundStatus.refunded:
      return { state: "succeeded" };
    case RefundStatus.failed:
      return { state: "failed", failureReason: "Mollie could not give the money back to the payer." };
    case RefundStatus.canceled:
      return { state: "failed", failureReason: "The refund was canceled at Mollie." };
    default:
      return { state: "pending" };
  }
}

/** Mollie's status, in the platform's terms: paid completes; failed, canceled and expired fail; the rest wait. */
export function mollieOutcome(payment: Payment): ProcessorOutcome {
  switch (payment.status) {
    case PaymentStatus.paid:
      return { state: "completed", fee: null };
    case PaymentStatus.canceled:
      return {
        state: "failed",
        failureCode: "canceled",
        failureReason: "The payer canceled the payment at Mollie.",
      };
    case PaymentStatus.expired:
      return {
        state: "failed",
        failureCode: "expired",
        failureReason: "The payment expired at Mollie unpaid.",
      };
    case PaymentStatus.failed: {
      const reason = (payment.details as { failureReason?: string } | null)?.failureReason;
      return {
        state: "failed",
        failureCode: (reason && CARD_FAILURES[reason]) || "processor_declined",
        failureReason: reason
          ? `Mollie declined the payment (${reason.replaceAll("_", " ")}).`
          : "Mollie declined the payment.",
      };
    }
    default:
      return { state: "pending" };
  }
}

export function mollieConnector(key: string): Connector {
  const mollie = client(key);
  const call = <T>(action: string, work: () => Promise<T>, refusals = refusalOf) =>
    callProcessor("mollie", action, work, refusals);
  return {
    processor: "mollie",
    async verifyKey() {
      await call("verify key", async () => {
        if (!MOLLIE_KEY_SHAPE.test(key))
          throw new ProcessorRefusal("key", "A Mollie API key is test_ or live_ and 30 letters or digits.");
        await mollie.methods.list();
      });
    },
    createPayment(request) {
      return call("create payment", async () => {
        const payment = await mollie.payments.create({
          amount: { currency: request.currency, value: request.amount },
          description: request.description,
          redirectUrl: request.returnUrl,
          webhookUrl: request.webhookUrl,
          metadata: { reference: request.reference },
          idempotencyKey: request.idempotencyKey,
        });
        const hostedUrl = payment.getCheckoutUrl();
        // A payment without a checkout page is not one a payer can pay: an answer Mollie does not document.
        if (typeof payment.id !== "string" || !hostedUrl)
          throw new Error("Mollie answered without a checkout");
        return { id: payment.id, hostedUrl };
      });
    },
    paymentOutcome(processorPaymentId) {
      return call("read payment", async () => {
        const payment = await mollie.payments.get(processorPaymentId);
        if (payment.id !== processorPaymentId) throw new Error("Mollie answered with another payment");
        return mollieOutcome(payment);
      });
    },
    createRefund(request) {
      return call(
        "create refund",
        async () => {
          const refund = await mollie.paymentRefunds.create({
            paymentId: request.processorPaymentId,
            amount: { currency: request.currency, value: request.amount },
            description: `Refund ${request.reference}`,
            metadata: { reference: request.reference },
            idempotencyKey: request.idempotencyKey,
          });
          if (typeof refund.id !== "string") throw new Error("Mollie answered without a refund");
          return { id: refund.id, outcome: mollieRefundOutcome(refund) };
        },
        refundRefusalOf,
      );
    },
    refundOutcome(processorPaymentId, processorRefundId) {
      return call("read refund", async () => {
        const refund = await mollie.paymentRefunds.get(processorRefundId, { paymentId: processorPaymentId });
        if (refund.id !== processorRefundId) throw new Error("Mollie answered with another refund");
        return mollieRefundOutcome(refund);
      });
    },
  };
}
