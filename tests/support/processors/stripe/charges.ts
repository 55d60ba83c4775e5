// Charges (docs.stripe.com/api/charges) and Balance Transactions (docs.stripe.com/api/balance_transactions) for
// a card payment. The test cards and their outcomes are those of docs.stripe.com/testing#declined-payments.
import { str } from "./form";
import type { Route } from "./server";
import { type Account, clone, type Ctx, find, listOf, newId, now, type Obj, ofKind, save } from "./store";

/**
 * The stand-in's fee rule (Stripe's real pricing varies by country and card): 1.5 % of the amount, rounded to
 * the nearest minor unit, plus 25 minor units. fee + net = amount.
 */
export function processingFee(amount: number) {
  return Math.round(amount * 0.015) + 25;
}

interface Decline {
  code: string;
  decline_code: string;
  message: string;
}

export const declines: Record<string, Decline> = {
  "4000000000000002": {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
  },
  "4000000000009995": {
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Your card has insufficient funds.",
  },
  "4000000000000069": {
    code: "expired_card",
    decline_code: "expired_card",
    message: "Your card has expired.",
  },
};

function brandOf(card: string) {
  if (card.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(card)) return "mastercard";
  if (/^3[47]/.test(card)) return "amex";
  return "unknown";
}

/** A charge of the intent's amount with this card: succeeded with a balance transaction, or failed. */
export function recordCharge(account: Account, intent: Obj, card: string) {
  const decline = declines[card];
  const amount = intent.amount as number;
  const currency = intent.currency as string;
  const paymentMethod = newId("pm");
  const chargeId = newId("ch");
  const created = now();
  let txn: Obj | null = null;
  if (!decline) {
    const fee = processingFee(amount);
    txn = save(account, {
      id: newId("txn"),
      object: "balance_transaction",
      amount,
      available_on: created + 2 * 86400,
      created,
      currency,
      description: null,
      exchange_rate: null,
      fee,
      fee_details: [
        {
          amount: fee,
          application: null,
          currency,
          description: "Stripe processing fees",
          type: "stripe_fee",
        },
      ],
      net: amount - fee,
      reporting_category: "charge",
      source: chargeId,
      status: "pending",
      type: "charge",
    });
  }
  const charge = save(account, {
    id: chargeId,
    object: "charge",
    amount,
    amount_captured: decline ? 0 : amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: txn?.id ?? null,
    billing_details: { address: null, email: null, name: null, phone: null },
    calculated_statement_descriptor: "STRIPE STAND-IN",
    captured: !decline,
    created,
    currency,
    customer: null,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    fraud_details: {},
    livemode: account.livemode,
    metadata: clone(intent.metadata),
    on_behalf_of: null,
    outcome: decline
      ? {
          network_status: "declined_by_network",
          reason: decline.decline_code,
          risk_level: "normal",
          seller_message: "The bank did not return any further details with this decline.",
          type: "issuer_declined",
        }
      : {
          network_status: "approved_by_network",
          reason: null,
          risk_level: "normal",
          seller_message: "Payment complete.",
          type: "authorized",
        },
    paid: !decline,
    payment_intent: intent.id,
    payment_method: paymentMethod,
    payment_method_details: {
      card: {
        brand: brandOf(card),
        country: "US",
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        funding: "credit",
        last4: card.slice(-4),
        network: brandOf(card),
      },
      type: "card",
    },
    receipt_email: intent.receipt_email,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    status: decline ? "failed" : "succeeded",
    transfer_data: null,
    transfer_group: intent.transfer_group,
  });
  return { charge, decline, paymentMethod };
}

function listCharges(ctx: Ctx) {
  const intent = str(ctx.params, "payment_intent");
  const items = ofKind(ctx.account, "charge").filter((o) => !intent || o.payment_intent === intent);
  return listOf(items, ctx.params, "/v1/charges");
}

export const chargeRoutes: Route[] = [
  { method: "GET", path: /^\/v1\/charges$/, handler: listCharges },
  {
    method: "GET",
    path: /^\/v1\/charges\/([^/]+)$/,
    handler: (ctx, id) => clone(find(ctx.account, "charge", id)),
  },
  {
    method: "GET",
    path: /^\/v1\/balance_transactions$/,
    handler: (ctx) =>
      listOf(ofKind(ctx.account, "balance_transaction"), ctx.params, "/v1/balance_transactions"),
  },
  {
    method: "GET",
    path: /^\/v1\/balance_transactions\/([^/]+)$/,
    handler: (ctx, id) => clone(find(ctx.account, "balance_transaction", id)),
  },
];
