// Checkout Sessions (docs.stripe.com/api/checkout/sessions: create, retrieve, list, expire, line_items), in
// `mode=payment` with `line_items[][price_data]`. As in current API versions, `payment_intent` stays null until
// the payer's first attempt, and `url` is null once the session is no longer open.
import { ApiError } from "./errors";
import { list, metadata, onlyKnown, type Params, requiredStr, str } from "./form";
import { chargeCard } from "./payment-intents";
import type { Route } from "./server";
import { expiresAt, intentData, lineItems, url } from "./session-params";
import {
  type Account,
  clone,
  type Ctx,
  find,
  listOf,
  newId,
  now,
  type Obj,
  ofKind,
  save,
  type State,
} from "./store";
import { emit, type Origin } from "./webhooks";

// The create parameters of the reference; the stand-in acts on the payment ones and keeps the rest silent.
// prettier-ignore
const createParams = [
  "adaptive_pricing", "after_expiration", "allow_promotion_codes", "allowed_payment_method_types",
  "automatic_tax", "billing_address_collection", "branding_settings", "cancel_url", "client_reference_id",
  "consent_collection", "currency", "custom_fields", "custom_text", "customer", "customer_account",
  "customer_creation", "customer_email", "customer_update", "discounts", "excluded_payment_method_types",
  "expand", "expires_at", "integration_identifier", "invoice_creation", "line_items", "locale",
  "managed_payments", "metadata", "mode", "name_collection", "optional_items", "origin_context",
  "payment_intent_data", "payment_method_collection", "payment_method_configuration", "payment_method_data",
  "payment_method_options", "payment_method_types", "permissions", "phone_number_collection",
  "redirect_on_completion", "return_url", "saved_payment_method_options", "setup_intent_data",
  "shipping_address_collection", "shipping_options", "submit_type", "subscription_data", "success_url",
  "tax_id_collection", "ui_mode", "wallet_options",
];

function create(ctx: Ctx) {
  const { params } = ctx;
  onlyKnown(params, createParams);
  const mode = requiredStr(params, "mode");
  if (!["payment", "setup", "subscription"].includes(mode)) {
    throw ApiError.invalid("mode", "Invalid mode: must be one of payment, setup, or subscription");
  }
  if (mode !== "payment") throw ApiError.invalid("mode", "The stand-in supports mode=payment only.");
  const items = lineItems(ctx, (list(params, "line_items") ?? []) as Params[]);
  const currency = items[0]!.currency;
  if (items.some((item) => item.currency !== currency)) {
    throw ApiError.invalid("line_items", "All line items must have the same currency.");
  }
  const clientReference = str(params, "client_reference_id");
  if (clientReference !== undefined && clientReference.length > 200) {
    throw ApiError.invalid("client_reference_id", "client_reference_id must be at most 200 characters.");
  }
  const created = now();
  const amount = items.reduce((sum, item) => sum + item.amount_total, 0);
  const id = newId("cs", ctx.account);
  const session = {
    id,
    object: "checkout.session",
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: url(params, "cancel_url"),
    client_reference_id: clientReference || null,
    client_secret: null,
    consent: null,
    consent_collection: null,
    created,
    currency,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: null,
    customer_creation: str(params, "customer_creation") ?? "if_required",
    customer_details: null,
    customer_email: str(params, "customer_email") ?? null,
    expires_at: expiresAt(params, created),
    invoice: null,
    invoice_creation: { enabled: false, invoice_data: { metadata: {} } },
    livemode: ctx.account.livemode,
    locale: str(params, "locale") ?? null,
    metadata: metadata(params),
    mode,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "if_required",
    payment_method_options: {},
    payment_method_types: ["card"],
    payment_status: "unpaid",
    phone_number_collection: { enabled: false },
    recovered_from: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: str(params, "submit_type") ?? null,
    subscription: null,
    success_url: url(params, "success_url"),
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `${ctx.state.baseUrl}/c/pay/${id}`,
  };
  ctx.account.sessionData.set(id, { lineItems: items, intentData: intentData(params) });
  return clone(save(ctx.account, session));
}

/** A session past its `expires_at` expires when next looked at (and by the stand-in's sweep). */
export function sweep(state: State) {
  for (const account of state.accounts.values()) {
    for (const session of ofKind(account, "checkout.session")) {
      if (session.status === "open" && (session.expires_at as number) <= now()) {
        expireSession({ state, account, requestId: null, idempotencyKey: null }, session);
      }
    }
  }
}

export function expireSession(origin: Origin, session: Obj) {
  if (session.status !== "open") {
    throw ApiError.request(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
    );
  }
  session.status = "expired";
  session.url = null;
  const intentId = session.payment_intent as string | null;
  if (intentId) {
    const intent = find(origin.account, "payment_intent", intentId);
    intent.status = "canceled";
    intent.canceled_at = now();
    intent.cancellation_reason = "abandoned";
    emit(origin, "payment_intent.canceled", intent);
  }
  emit(origin, "checkout.session.expired", session);
  return clone(session);
}

/** What the hosted page's Pay button does. A declined card leaves the session open, as Checkout does. */
export function paySession(origin: Origin, session: Obj, card: string) {
  if (session.status !== "open") throw ApiError.request(`This Checkout Session is no longer active.`);
  const attempt = chargeCard(origin, session, card.replace(/[\s-]/g, ""));
  if (!attempt.paid)
    return { paid: false as const, message: attempt.message, paymentIntent: attempt.paymentIntent };
  session.status = "complete";
  session.payment_status = "paid";
  session.url = null;
  session.customer_details = {
    address: null,
    email: session.customer_email,
    name: null,
    phone: null,
    tax_exempt: "none",
    tax_ids: [],
  };
  emit(origin, "checkout.session.completed", session);
  const success = session.success_url as string | null;
  const redirect = success ? success.replaceAll("{CHECKOUT_SESSION_ID}", session.id) : null;
  return { paid: true as const, redirect, paymentIntent: attempt.paymentIntent };
}

/** `line_items` is absent from the session unless expanded. */
export function sessionVirtual(account: Account) {
  return (object: Record<string, unknown>, field: string) => {
    if (object.object !== "checkout.session" || field !== "line_items") return undefined;
    const items = account.sessionData.get(object.id as string)?.lineItems ?? [];
    return {
      object: "list",
      data: clone(items),
      has_more: false,
      url: `/v1/checkout/sessions/${String(object.id)}/line_items`,
    };
  };
}

function session(ctx: Ctx, id: string) {
  sweep(ctx.state);
  return find(ctx.account, "checkout.session", id, "session");
}

export const checkoutRoutes: Route[] = [
  { method: "POST", path: /^\/v1\/checkout\/sessions$/, handler: create },
  {
    method: "GET",
    path: /^\/v1\/checkout\/sessions$/,
    handler: (ctx) => {
      sweep(ctx.state);
      const intent = str(ctx.params, "payment_intent");
      const status = str(ctx.params, "status");
      const items = ofKind(ctx.account, "checkout.session").filter(
        (s) => (!intent || s.payment_intent === intent) && (!status || s.status === status),
      );
      return listOf(items, ctx.params, "/v1/checkout/sessions");
    },
  },
  {
    method: "GET",
    path: /^\/v1\/checkout\/sessions\/([^/]+)$/,
    handler: (ctx, id) => clone(session(ctx, id)),
  },
  {
    method: "GET",
    path: /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/,
    handler: (ctx, id) => {
      session(ctx, id);
      const items = ctx.account.sessionData.get(id)?.lineItems ?? [];
      return listOf([...items].reverse(), ctx.params, `/v1/checkout/sessions/${id}/line_items`);
    },
  },
  {
    method: "POST",
    path: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
    handler: (ctx, id) => expireSession(ctx, session(ctx, id)),
  },
];
