import "server-only";
import https from "node:https";
import Stripe from "stripe";
import type { PaymentFailureCode } from "@/db/enums";
import { withDecimals } from "@/lib/money/amount";
import { minorUnits } from "@/lib/money/currencies";
import { getEnv } from "@/lib/platform/env";
import {
  callProcessor,
  ProcessorRefusal,
  trustedAuthorities,
  withoutKeys,
  type Connector,
  type ProcessorOutcome,
  type ProcessorRefundOutcome,
} from "./connector";

// Stripe through its official library (stripe): a Checkout Session per payment, its state always read back
// from Stripe; its webhooks are verified with the signing secret of the endpoint made at connection.

/** A secret or restricted key (docs.stripe.com, "API keys"). */
export const STRIPE_KEY_SHAPE = /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,247}$/;

/** What this platform listens to: a session paid (at once or later), failed later, or expired… */
export const STRIPE_SESSION_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
] as const;
/** …and a refund that succeeded or failed (docs.stripe.com/refunds, "Refund events"). */
export const STRIPE_REFUND_EVENTS = ["refund.updated", "refund.failed"] as const;
export const STRIPE_EVENTS = [...STRIPE_SESSION_EVENTS, ...STRIPE_REFUND_EVENTS] as const;

/** Stripe's decline codes (docs.stripe.com, "Decline codes"), in this platform's; any other is card_declined. */
const DECLINES: Partial<Record<string, PaymentFailureCode>> = {
  insufficient_funds: "insufficient_funds",
  expired_card: "expired_card",
  authentication_required: "authentication_failed",
};

let agent: https.Agent | undefined;

function client(key: string): Stripe {
  const url = new URL(getEnv().STRIPE_API_URL);
  agent ??= new https.Agent({ keepAlive: true, ca: trustedAuthorities() });
  return new Stripe(key, {
    host: url.hostname,
    port: url.port || 443,
    protocol: "https",
    httpAgent: agent,
    // The platform bounds each call itself (PROCESSOR_TIMEOUT); a retry carries the same idempotency key.
    maxNetworkRetries: 1,
  });
}

function refusalOf(error: unknown): unknown {
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  )
    return new ProcessorRefusal("key", `Stripe: ${withoutKeys(error.message)}`);
  if (error instanceof Stripe.errors.StripeInvalidRequestError && /amount|currency/.test(error.param ?? ""))
    return new ProcessorRefusal(
      error.param?.includes("currency") ? "currency" : "amount",
      "Stripe does not take this amount in this currency.",
    );
  return error;
}

/** A refund Stripe will not make (already refunded, more than is left, a disputed charge): it fails with its words. */
function refundRefusalOf(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    return new ProcessorRefusal("refund", `Stripe refused the refund: ${withoutKeys(error.message)}`);
  return refusalOf(error);
}

/** A refund's status: succeeded; failed or canceled fail with Stripe's reason; pending and requires_action wait. */
export function stripeRefundOutcome(refund: Stripe.Refund): ProcessorRefundOutcome {
  if (refund.status === "succeeded") return { state: "succeeded" };
  if (refund.status === "failed" || refund.status === "canceled") {
    const reason = refund.failure_reason ?? refund.status;
    return {
      state: "failed",
      failureReason: `Stripe could not give the money back (${reason.replaceAll("_", " ")}).`,
    };
  }
  return { state: "pending" };
}

/** A decimal amount in Stripe's integer minor units: "12.50" EUR is 1250, "1500" JPY is 1500. */
export function stripeUnits(amount: string, currency: string): number {
  return Number(withDecimals(amount, minorUnits(currency)).replace(".", ""));
}

function fromStripeUnits(units: number, currency: string): string {
  const places = minorUnits(currency);
  return places === 0 ? String(units) : (units / 10 ** places).toFixed(places);
}

/** Why an expired session's payer did not pay: its last decline, else the time ran out. */
function expiredOutcome(intent: Stripe.PaymentIntent | null): ProcessorOutcome {
  const decline = intent?.last_payment_error;
  if (!decline)
    return { state: "failed", failureCode: "expired", failureReason: "The Stripe Checkout expired unpaid." };
  const code = decline.decline_code ?? decline.code ?? "card_declined";
  return {
    state: "failed",
    failureCode: DECLINES[code] ?? "card_declined",
    failureReason: `Stripe declined the card (${code.replaceAll("_", " ")}); the Checkout expired unpaid.`,
  };
}

/** A session's state: paid completes with Stripe's fee; expired fails; open waits (its payer may try again). */
export function stripeOutcome(session: Stripe.Checkout.Session): ProcessorOutcome {
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  if (session.payment_status === "paid") {
    const charge = typeof intent?.latest_charge === "object" ? intent.latest_charge : null;
    const balance = typeof charge?.balance_transaction === "object" ? charge.balance_transaction : null;
    // A fee in the account's settlement currency is not the payment's: left to the payout's mirror.
    const fee =
      balance && balance.currency.toUpperCase() === session.currency?.toUpperCase()
        ? fromStripeUnits(balance.fee, balance.currency.toUpperCase())
        : null;
    return { state: "completed", fee };
  }
  if (session.status === "expired") return expiredOutcome(intent);
  return { state: "pending" };
}

export function stripeConnector(key: string): Connector & {
  makeWebhookEndpoint(url: string): Promise<{ id: string; secret: string }>;
} {
  const stripe = client(key);
  const call = <T>(action: string, work: () => Promise<T>, refusals = refusalOf) =>
    callProcessor("stripe", action, work, refusals);
  return {
    processor: "stripe",
    async verifyKey() {
      await call("verify key", async () => {
        if (!STRIPE_KEY_SHAPE.test(key))
          throw new ProcessorRefusal("key", "A Stripe key is sk_test_…, sk_live_…, rk_test_… or rk_live_….");
        await stripe.balance.retrieve();
      });
    },
    makeWebhookEndpoint(url) {
      return call("make webhook endpoint", async () => {
        const endpoint = await stripe.webhookEndpoints.create({ url, enabled_events: [...STRIPE_EVENTS] });
        if (!endpoint.secret) throw new Error("Stripe answered without a signing secret");
        return { id: endpoint.id, secret: endpoint.secret };
      });
    },
    createPayment(request) {
      return call("create payment", async () => {
        const session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: stripeUnits(request.amount, request.currency),
                  product_data: { name: request.description },
                },
              },
            ],
            success_url: request.returnUrl,
            cancel_url: request.returnUrl,
            client_reference_id: request.reference,
            metadata: { reference: request.reference },
            payment_intent_data: { metadata: { reference: request.reference } },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (typeof session.id !== "string" || !session.url) throw new Error("Stripe answered without a page");
        return { id: session.id, hostedUrl: session.url };
      });
    },
    paymentOutcome(processorPaymentId) {
      return call("read payment", async () => {
        const session = await stripe.checkout.sessions.retrieve(processorPaymentId, {
          expand: ["payment_intent.latest_charge.balance_transaction"],
        });
        if (session.id !== processorPaymentId) throw new Error("Stripe answered with another session");
        return stripeOutcome(session);
      });
    },
    createRefund(request) {
      return call(
        "create refund",
        async () => {
          // A session's money is its PaymentIntent's: the refund names that.
          const session = await stripe.checkout.sessions.retrieve(request.processorPaymentId);
          const intent =
            typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
          if (session.id !== request.processorPaymentId || !intent)
            throw new Error("Stripe answered with no PaymentIntent to refund");
          const refund = await stripe.refunds.create(
            {
              payment_intent: intent,
              amount: stripeUnits(request.amount, request.currency),
              metadata: { reference: request.reference },
            },
            { idempotencyKey: request.idempotencyKey },
          );
          if (typeof refund.id !== "string") throw new Error("Stripe answered without a refund");
          return { id: refund.id, outcome: stripeRefundOutcome(refund) };
        },
        refundRefusalOf,
      );
    },
    refundOutcome(_processorPaymentId, processorRefundId) {
      return call("read refund", async () => {
        const refund = await stripe.refunds.retrieve(processorRefundId);
        if (refund.id !== processorRefundId) throw new Error("Stripe answered with another refund");
        return stripeRefundOutcome(refund);
      });
    },
  };
}

/**
 * A webhook's event if its signature holds under the endpoint's secret and it is fresh (Stripe's 5 minutes);
 * null otherwise. Nothing of the body is trusted beyond which session it names.
 */
export function verifiedStripeEvent(
  body: Buffer,
  signature: string | null,
  secret: string,
): Stripe.Event | null {
  if (!signature) return null;
  try {
    return Stripe.webhooks.constructEvent(body, signature, secret);
  } catch {
    return null;
  }
}
