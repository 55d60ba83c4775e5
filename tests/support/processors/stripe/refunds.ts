// Refunds (docs.stripe.com/api/refunds: create, retrieve, update, list). A card refund starts `pending` here and
// is settled by a test control (or at once); while pending or succeeded it counts in the charge's
// `amount_refunded`, and a failed one gives its amount back (docs.stripe.com/refunds#failed-refunds).
import { ApiError } from "./errors";
import { metadata, onlyKnown, positiveInt, str } from "./form";
import type { Route } from "./server";
import { type Account, clone, type Ctx, find, listOf, newId, now, type Obj, ofKind, save } from "./store";
import { emit, type Origin } from "./webhooks";

// prettier-ignore
const createParams = [
  "amount", "charge", "currency", "customer", "expand", "instructions_email", "metadata", "origin",
  "payment_intent", "reason", "refund_application_fee", "reverse_transfer",
];
const reasons = ["duplicate", "fraudulent", "requested_by_customer"];

function money(amount: number, currency: string) {
  return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

function chargeToRefund(ctx: Ctx): Obj {
  const chargeId = str(ctx.params, "charge");
  const intentId = str(ctx.params, "payment_intent");
  if (!chargeId && !intentId) {
    throw ApiError.request(
      "One of the following params should be provided for this request: payment_intent or charge.",
      "parameter_missing",
    );
  }
  if (chargeId) {
    const charge = find(ctx.account, "charge", chargeId, "charge");
    if (intentId && charge.payment_intent !== intentId) {
      throw ApiError.invalid(
        "payment_intent",
        `Charge ${chargeId} does not belong to PaymentIntent ${intentId}.`,
      );
    }
    if (charge.status !== "succeeded")
      throw ApiError.request(`Charge ${chargeId} has not succeeded; it cannot be refunded.`);
    return charge;
  }
  const intent = find(ctx.account, "payment_intent", intentId!, "payment_intent");
  if (intent.status !== "succeeded" || !intent.latest_charge) {
    throw ApiError.request(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`);
  }
  return find(ctx.account, "charge", intent.latest_charge as string, "charge");
}

function balanceEntry(account: Account, refund: Obj, amount: number, type: string) {
  const created = now();
  return save(account, {
    id: newId("txn"),
    object: "balance_transaction",
    amount,
    available_on: created,
    created,
    currency: refund.currency,
    description: type === "refund" ? "REFUND FOR CHARGE" : "REFUND FAILURE",
    exchange_rate: null,
    fee: 0,
    fee_details: [],
    net: amount,
    reporting_category: type,
    source: refund.id,
    status: "available",
    type,
  });
}

function create(ctx: Ctx) {
  onlyKnown(ctx.params, createParams);
  const reason = str(ctx.params, "reason");
  if (reason !== undefined && !reasons.includes(reason)) {
    throw ApiError.invalid(
      "reason",
      "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer",
    );
  }
  const requested = positiveInt(ctx.params, "amount");
  const charge = chargeToRefund(ctx);
  const currency = charge.currency as string;
  const remaining = (charge.amount as number) - (charge.amount_refunded as number);
  if (remaining <= 0) {
    throw ApiError.request(`Charge ${charge.id} has already been refunded.`, "charge_already_refunded");
  }
  if (requested !== undefined && requested > remaining) {
    throw ApiError.request(
      `Refund amount (${money(requested, currency)}) is greater than unrefunded amount on charge (${money(remaining, currency)})`,
      "amount_too_large",
      "amount",
    );
  }
  const amount = requested ?? remaining;
  const id = newId("re");
  const refund = save(ctx.account, {
    id,
    object: "refund",
    amount,
    balance_transaction: null as string | null,
    charge: charge.id,
    created: now(),
    currency,
    destination_details: {
      card: {
        reference: null,
        reference_status: "pending",
        reference_type: "acquirer_reference_number",
        type: "refund",
      },
      type: "card",
    },
    metadata: metadata(ctx.params),
    payment_intent: charge.payment_intent,
    reason: reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: ctx.state.refundsSucceedAtOnce ? "succeeded" : "pending",
    transfer_reversal: null,
  });
  refund.balance_transaction = balanceEntry(ctx.account, refund, -amount, "refund").id;
  charge.amount_refunded = (charge.amount_refunded as number) + amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  emit(ctx, "refund.created", refund);
  emit(ctx, "charge.refunded", charge);
  return clone(refund);
}

export type RefundOutcome = "succeeded" | "failed";

/** A refund's settlement, as the card network would report it. */
export function settleRefund(
  origin: Origin,
  refund: Obj,
  outcome: RefundOutcome,
  failureReason = "expired_or_canceled_card",
) {
  const previous = refund.status as string;
  if (previous === outcome) return;
  if (previous !== "pending" && !(previous === "succeeded" && outcome === "failed")) {
    throw new Error(`refund ${refund.id} is ${previous}; it cannot become ${outcome}`);
  }
  const card = (refund.destination_details as { card: Record<string, unknown> }).card;
  if (outcome === "succeeded") {
    refund.status = "succeeded";
    card.reference_status = "available";
    card.reference = String(Date.now()).slice(-12);
    emit(origin, "refund.updated", refund, { status: previous });
    return;
  }
  refund.status = "failed";
  refund.failure_reason = failureReason;
  refund.failure_balance_transaction = balanceEntry(
    origin.account,
    refund,
    refund.amount as number,
    "refund_failure",
  ).id;
  card.reference_status = "unavailable";
  const charge = find(origin.account, "charge", refund.charge as string);
  charge.amount_refunded = (charge.amount_refunded as number) - (refund.amount as number);
  charge.refunded = false;
  emit(origin, "refund.updated", refund, {
    status: previous,
    failure_reason: null,
    failure_balance_transaction: null,
  });
  emit(origin, "refund.failed", refund);
}

export const refundRoutes: Route[] = [
  { method: "POST", path: /^\/v1\/refunds$/, handler: create },
  {
    method: "GET",
    path: /^\/v1\/refunds$/,
    handler: (ctx) => {
      const charge = str(ctx.params, "charge");
      const intent = str(ctx.params, "payment_intent");
      const items = ofKind(ctx.account, "refund").filter(
        (r) => (!charge || r.charge === charge) && (!intent || r.payment_intent === intent),
      );
      return listOf(items, ctx.params, "/v1/refunds");
    },
  },
  {
    method: "GET",
    path: /^\/v1\/refunds\/([^/]+)$/,
    handler: (ctx, id) => clone(find(ctx.account, "refund", id, "refund")),
  },
  {
    method: "POST",
    path: /^\/v1\/refunds\/([^/]+)$/,
    handler: (ctx, id) => {
      onlyKnown(ctx.params, ["expand", "metadata"]);
      const refund = find(ctx.account, "refund", id, "refund");
      refund.metadata =
        ctx.params.metadata === "" ? {} : metadata(ctx.params, "metadata", refund.metadata as never);
      return clone(refund);
    },
  },
  {
    method: "POST",
    path: /^\/v1\/refunds\/([^/]+)\/cancel$/,
    handler: (ctx, id) => {
      const refund = find(ctx.account, "refund", id, "refund");
      throw ApiError.request(
        `Refund ${refund.id} cannot be canceled: only refunds with status requires_action can be.`,
      );
    },
  },
];
