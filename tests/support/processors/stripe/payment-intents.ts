// PaymentIntents (docs.stripe.com/api/payment_intents: retrieve, list), made when a payer first tries to pay a
// Checkout Session and confirmed with each card the payer tries.
import { recordCharge } from "./charges";
import { str } from "./form";
import type { Route } from "./server";
import { clone, type Ctx, find, listOf, newId, now, type Obj, ofKind, randomText, save } from "./store";
import { emit, type Origin } from "./webhooks";

export type Attempt =
  { paid: true; paymentIntent: Obj } | { paid: false; paymentIntent: Obj; message: string };

/** A PaymentIntent for the session's amount, made on the payer's first attempt (as Checkout does today). */
export function intentFor(origin: Origin, session: Obj): Obj {
  const existing = session.payment_intent as string | null;
  if (existing) return find(origin.account, "payment_intent", existing);
  const id = newId("pi");
  const data = origin.account.sessionData.get(session.id)?.intentData ?? {};
  const intent = save(origin.account, {
    id,
    object: "payment_intent",
    amount: session.amount_total,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_${randomText(25)}`,
    confirmation_method: "automatic",
    created: now(),
    currency: session.currency,
    customer: null,
    description: data.description ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: origin.account.livemode,
    metadata: data.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: data.receipt_email ?? null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: data.statement_descriptor ?? null,
    statement_descriptor_suffix: data.statement_descriptor_suffix ?? null,
    status: "requires_payment_method",
    transfer_data: null,
    transfer_group: data.transfer_group ?? null,
  });
  session.payment_intent = id;
  emit(origin, "payment_intent.created", intent);
  return intent;
}

/** Confirms the session's PaymentIntent with a card number: a charge either way, a balance transaction if paid. */
export function chargeCard(origin: Origin, session: Obj, card: string): Attempt {
  const { account } = origin;
  const intent = intentFor(origin, session);
  const { charge, decline, paymentMethod } = recordCharge(account, intent, card);
  intent.latest_charge = charge.id;
  intent.payment_method = paymentMethod;
  if (decline) {
    intent.status = "requires_payment_method";
    intent.last_payment_error = {
      type: "card_error",
      charge: charge.id,
      code: decline.code,
      decline_code: decline.decline_code,
      doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, "-")}`,
      message: decline.message,
      payment_method: { id: paymentMethod, object: "payment_method", type: "card" },
    };
    // Stripe detaches the failed payment method from the intent.
    intent.payment_method = null;
    emit(origin, "charge.failed", charge);
    emit(origin, "payment_intent.payment_failed", intent);
    return { paid: false, paymentIntent: intent, message: decline.message };
  }
  intent.status = "succeeded";
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  emit(origin, "charge.succeeded", charge);
  emit(origin, "payment_intent.succeeded", intent);
  return { paid: true, paymentIntent: intent };
}

function listIntents(ctx: Ctx) {
  const customer = str(ctx.params, "customer");
  const items = ofKind(ctx.account, "payment_intent").filter((o) => !customer || o.customer === customer);
  return listOf(items, ctx.params, "/v1/payment_intents");
}

export const paymentRoutes: Route[] = [
  { method: "GET", path: /^\/v1\/payment_intents$/, handler: listIntents },
  {
    method: "GET",
    path: /^\/v1\/payment_intents\/([^/]+)$/,
    handler: (ctx, id) => clone(find(ctx.account, "payment_intent", id, "intent")),
  },
];
