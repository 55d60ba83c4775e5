// The payment and refund objects as docs.mollie.com/reference/v2/payments-api/get-payment and
// /refunds-api/get-payment-refund describe them: optional fields are left out, not nulled, where the reference says
// "this parameter is omitted if …".
import { docLink, halLink, htmlLink, timestamp } from "./common";
import { isCancelable, isFinal, refundedMinor } from "./lifecycle";
import { formatAmount } from "./money";
import type { PaymentRecord, RefundRecord } from "./store";

/** The stand-in's hosted page for a payment: Mollie's own is /checkout/select-method/<token>. */
export function checkoutPath(paymentId: string): string {
  return `/checkout/select-method/${paymentId.replace(/^tr_/, "")}`;
}

export function dashboardPath(payment: PaymentRecord): string {
  return `/dashboard/${payment.account.organizationId}/payments/${payment.id}`;
}

export function paymentJson(payment: PaymentRecord, refunds: Map<string, RefundRecord>, base: string) {
  const at = (date: Date | undefined) => (date ? timestamp(date) : undefined);
  const final = isFinal(payment.status);
  const refundable = payment.status === "paid";
  const refunded = refundedMinor(payment, refunds);
  const { currency } = payment.amount;
  const json: Record<string, unknown> = {
    resource: "payment",
    id: payment.id,
    mode: payment.account.mode,
    createdAt: timestamp(payment.createdAt),
    amount: formatAmount(payment.amount),
    description: payment.description,
    method: payment.method,
    metadata: payment.metadata,
    status: payment.status,
    // Omitted once the payment reaches a final state.
    isCancelable: final ? undefined : isCancelable(payment),
    authorizedAt: at(payment.authorizedAt),
    paidAt: at(payment.paidAt),
    canceledAt: at(payment.canceledAt),
    // Omitted when the payment can no longer expire.
    expiresAt: final || payment.status === "authorized" ? undefined : timestamp(payment.expiresAt),
    expiredAt: at(payment.expiredAt),
    failedAt: at(payment.failedAt),
    // "Only available when refunds are available for this payment."
    amountRefunded: refundable ? formatAmount({ currency, minor: refunded }) : undefined,
    amountRemaining: refundable
      ? formatAmount({ currency, minor: payment.amount.minor - refunded })
      : undefined,
    // The approximate amount settled to the account; only EUR, the stand-in accounts' settlement currency.
    settlementAmount: refundable && currency === "EUR" ? formatAmount(payment.amount) : undefined,
    locale: payment.locale ?? undefined,
    profileId: payment.account.profileId,
    sequenceType: payment.sequenceType,
    redirectUrl: payment.redirectUrl,
    cancelUrl: payment.cancelUrl ?? undefined,
    webhookUrl: payment.webhookUrl ?? undefined,
    details: payment.details,
    _links: {
      self: halLink(`${base}/v2/payments/${payment.id}`),
      // Only a payment that can still be paid has somewhere to send the payer.
      checkout:
        final || payment.status === "authorized" ? undefined : htmlLink(`${base}${checkoutPath(payment.id)}`),
      dashboard: htmlLink(`${base}${dashboardPath(payment)}`),
      refunds:
        payment.refundIds.length > 0 ? halLink(`${base}/v2/payments/${payment.id}/refunds`) : undefined,
      documentation: docLink("payments-api/get-payment"),
    },
  };
  // JSON.stringify drops undefined members, which is how "omitted" fields vanish.
  return JSON.parse(JSON.stringify(json)) as Record<string, unknown>;
}

export function refundJson(refund: RefundRecord, base: string) {
  const { currency, minor } = refund.amount;
  return {
    resource: "refund",
    id: refund.id,
    mode: refund.account.mode,
    amount: formatAmount(refund.amount),
    // Negative, in the settlement currency; the stand-in settles EUR only.
    ...(currency === "EUR" ? { settlementAmount: formatAmount({ currency, minor: -minor }) } : {}),
    status: refund.status,
    createdAt: timestamp(refund.createdAt),
    description: refund.description,
    metadata: refund.metadata,
    paymentId: refund.paymentId,
    _links: {
      self: halLink(`${base}/v2/payments/${refund.paymentId}/refunds/${refund.id}`),
      payment: halLink(`${base}/v2/payments/${refund.paymentId}`),
      documentation: docLink("refunds-api/get-payment-refund"),
    },
  };
}
