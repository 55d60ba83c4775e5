// The Payments API: create (docs.mollie.com/reference/v2/payments-api/create-payment), get, list and cancel. Creation
// validates as the reference's parameters say, answering 422 with `field` naming what is wrong.
import { apiError, newId, type ApiResponse } from "./common";
import { isHttpUrl, type RouteContext } from "./context";
import { expiryFor, isCancelable, isFinal } from "./lifecycle";
import { acceptsCurrency, KNOWN_METHODS, methodInfo, METHODS } from "./methods";
import { isMoney, parseAmount } from "./money";
import { listPage } from "./pagination";
import { paymentJson } from "./resources";
import type { PaymentRecord } from "./store";

const LOCALES = new Set(
  (
    "en_US en_GB nl_NL nl_BE fr_FR fr_BE de_DE de_AT de_CH es_ES ca_ES pt_PT it_IT nb_NO sv_SE fi_FI da_DK is_IS " +
    "hu_HU pl_PL lv_LV lt_LT"
  ).split(" "),
);
const SEQUENCE_TYPES = new Set(["oneoff", "first", "recurring"]);
/** "You can use up to approximately 1kB" of metadata. */
const METADATA_LIMIT = 1024;
/** Longer descriptions are not refused but truncated, to the absolute maximum of 255 characters. */
const DESCRIPTION_LIMIT = 255;

export function notFound(id: string): ApiResponse {
  return apiError(404, `No payment exists with token ${id}.`);
}

export function createPayment(ctx: RouteContext): ApiResponse {
  const { body } = ctx;
  const amount = parseAmount(body.amount, "amount");
  if (!isMoney(amount)) return amount;
  if (amount.minor <= 0) return apiError(422, "The amount is lower than the minimum", "amount");
  if (typeof body.description !== "string" || body.description.trim() === "") {
    return apiError(422, "The description is invalid", "description");
  }
  const sequenceType = body.sequenceType ?? "oneoff";
  if (typeof sequenceType !== "string" || !SEQUENCE_TYPES.has(sequenceType)) {
    return apiError(422, "The sequence type is invalid", "sequenceType");
  }
  if (sequenceType === "recurring") {
    // Recurring payments charge a customer's mandate, which the stand-in does not hold.
    return apiError(422, "The customer id is invalid", "customerId");
  }
  // Required, except for recurring payments (refused above).
  if (body.redirectUrl === undefined || body.redirectUrl === null) {
    return apiError(422, "The redirect URL is required", "redirectUrl");
  }
  if (!isHttpUrl(body.redirectUrl)) return apiError(422, "The redirect URL is invalid", "redirectUrl");
  if (!absentOr(body.cancelUrl, isHttpUrl)) return apiError(422, "The cancel URL is invalid", "cancelUrl");
  // Mollie also refuses a webhook it cannot reach (localhost); the stand-in's receivers live on 127.0.0.1.
  if (!absentOr(body.webhookUrl, isHttpUrl) && body.webhookUrl !== "") {
    return apiError(422, "The webhook URL is invalid", "webhookUrl");
  }
  if (!absentOr(body.locale, (locale) => typeof locale === "string" && LOCALES.has(locale))) {
    return apiError(422, "The locale is invalid", "locale");
  }
  const offered = readMethods(body.method);
  if (typeof offered === "string") return apiError(422, offered, "method");
  for (const id of offered ?? METHODS.map((method) => method.id)) {
    const method = methodInfo(id);
    if (!method) return apiError(422, `The payment method ${id} is not activated on the profile`, "method");
    if (offered && !acceptsCurrency(method, amount.currency)) {
      return apiError(422, `The currency ${amount.currency} is not supported by ${id}`, "amount.currency");
    }
    if (offered?.length === 1 && amount.currency === "EUR") {
      if (amount.minor > Number(method.maximum.replace(".", ""))) {
        return apiError(422, "The amount is higher than the maximum", "amount");
      }
      if (amount.minor < Number(method.minimum.replace(".", ""))) {
        return apiError(422, "The amount is lower than the minimum", "amount");
      }
    }
  }
  if (amount.currency === "EUR" && amount.minor > 100_000_000) {
    return apiError(422, "The amount is higher than the maximum", "amount");
  }
  const metadata = body.metadata ?? null;
  if (JSON.stringify(metadata).length > METADATA_LIMIT) {
    return apiError(422, "The metadata is too large", "metadata");
  }
  const now = new Date();
  const method = offered?.length === 1 ? (offered[0] ?? null) : null;
  const payment: PaymentRecord = {
    id: newId("tr"),
    account: ctx.account,
    createdAt: now,
    status: "open",
    amount,
    description: body.description.slice(0, DESCRIPTION_LIMIT),
    redirectUrl: body.redirectUrl,
    cancelUrl: typeof body.cancelUrl === "string" ? body.cancelUrl : null,
    webhookUrl: typeof body.webhookUrl === "string" && body.webhookUrl !== "" ? body.webhookUrl : null,
    method,
    offeredMethods: offered,
    metadata,
    locale: typeof body.locale === "string" ? body.locale : null,
    sequenceType,
    expiresAt: expiryFor(method, now),
    details: null,
    refundIds: [],
  };
  ctx.store.payments.set(payment.id, payment);
  ctx.lifecycle.scheduleExpiry(payment);
  return { status: 201, body: paymentJson(payment, ctx.store.refunds, ctx.base) };
}

export function getPayment(ctx: RouteContext, id: string): ApiResponse {
  const payment = ctx.store.payment(ctx.account, id);
  if (!payment) return notFound(id);
  return { status: 200, body: paymentJson(payment, ctx.store.refunds, ctx.base) };
}

/** Newest first, as Mollie lists (sort=desc is the default). */
export function listPayments(ctx: RouteContext): ApiResponse {
  const mine = [...ctx.store.payments.values()].filter((payment) => payment.account === ctx.account);
  mine.reverse();
  if (ctx.query.get("sort") === "asc") mine.reverse();
  return listPage({
    items: mine,
    query: ctx.query,
    base: ctx.base,
    path: "/v2/payments",
    name: "payments",
    documentation: "payments-api/list-payments",
    render: (payment) => paymentJson(payment, ctx.store.refunds, ctx.base),
  });
}

/** DELETE: allowed while `isCancelable` holds (open, or authorized); the answer is the canceled payment. */
export function cancelPayment(ctx: RouteContext, id: string): ApiResponse {
  const payment = ctx.store.payment(ctx.account, id);
  if (!payment) return notFound(id);
  if (isFinal(payment.status) || !isCancelable(payment)) {
    return apiError(422, `The payment cannot be canceled, its status is ${payment.status}`);
  }
  void ctx.lifecycle.setPaymentStatus(payment, "canceled");
  return { status: 200, body: paymentJson(payment, ctx.store.refunds, ctx.base) };
}

function absentOr(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || value === null || check(value);
}

/** `method` is a string or an array of them; null or absent lets the payer choose on the hosted page. */
function readMethods(input: unknown): string[] | null | string {
  if (input === undefined || input === null) return null;
  const list = Array.isArray(input) ? (input as unknown[]) : [input];
  if (list.length === 0) return null;
  for (const item of list) {
    if (typeof item !== "string" || !KNOWN_METHODS.has(item)) return `The payment method is invalid`;
  }
  return list as string[];
}
