// Status changes of payments and refunds, after docs.mollie.com/payments/status-changes and /payments/refunds, with
// the webhook calls docs.mollie.com/overview/webhooks lists and the balance movements the Balances API reports.
import { newId } from "./common";
import { paymentFee, type Money } from "./money";
import {
  FINAL_PAYMENT_STATUSES,
  type PaymentRecord,
  type PaymentStatus,
  type RefundRecord,
  type RefundStatus,
} from "./store";
import type { Webhooks } from "./webhooks";

const NEXT_PAYMENT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  open: ["pending", "authorized", "paid", "canceled", "expired", "failed"],
  pending: ["authorized", "paid", "canceled", "expired", "failed"],
  authorized: ["paid", "canceled", "expired"],
  paid: [],
  canceled: [],
  expired: [],
  failed: [],
};
/** "open" and "pending" are not statuses Mollie calls the webhook for; the rest are. */
const PAYMENT_WEBHOOK: ReadonlySet<PaymentStatus> = new Set([
  "authorized",
  "paid",
  "canceled",
  "expired",
  "failed",
]);

const NEXT_REFUND: Record<RefundStatus, readonly RefundStatus[]> = {
  queued: ["pending", "processing", "refunded", "failed", "canceled"],
  pending: ["processing", "refunded", "failed", "canceled"],
  processing: ["refunded", "failed"],
  refunded: [],
  failed: [],
  canceled: [],
};
/** The webhook is called when a refund reaches processing, refunded or failed. */
const REFUND_WEBHOOK: ReadonlySet<RefundStatus> = new Set(["processing", "refunded", "failed"]);

/** How long an open payment waits before it expires, per method (the status-changes page's table). */
const EXPIRY_MINUTES: Record<string, number> = {
  ideal: 15,
  creditcard: 30,
  bancontact: 60,
  paypal: 72 * 60,
  banktransfer: 12 * 24 * 60,
};

export const CARD_FAILURE_REASONS = [
  "authentication_abandoned",
  "authentication_failed",
  "authentication_required",
  "authentication_unavailable_acs",
  "card_declined",
  "card_expired",
  "inactive_card",
  "insufficient_funds",
  "invalid_cvv",
  "invalid_card_holder_name",
  "invalid_card_number",
  "invalid_card_type",
  "possible_fraud",
  "refused_by_issuer",
  "unknown_reason",
];

export interface StatusOptions {
  /** The method the payer used, when the payment was made without one (default: the first offered, or creditcard). */
  method?: string;
  /** For a failed card or Bancontact payment: `details.failureReason` (default card_declined). */
  failureReason?: string;
}

export function expiryFor(method: string | null, from: Date): Date {
  return new Date(from.getTime() + (EXPIRY_MINUTES[method ?? ""] ?? 15) * 60_000);
}

export function canBecome(from: PaymentStatus, to: PaymentStatus): boolean {
  return NEXT_PAYMENT[from].includes(to);
}

export function isCancelable(payment: PaymentRecord): boolean {
  return payment.status === "open" || payment.status === "authorized";
}

/** What refunds still count against the payment: all but failed and canceled ones. */
export function refundedMinor(payment: PaymentRecord, refunds: Map<string, RefundRecord>): number {
  let total = 0;
  for (const id of payment.refundIds) {
    const refund = refunds.get(id);
    if (refund && refund.status !== "failed" && refund.status !== "canceled") total += refund.amount.minor;
  }
  return total;
}

export class Lifecycle {
  constructor(private readonly webhooks: Webhooks) {}

  /**
   * Moves a payment to `status` and calls its webhook when Mollie would. Throws on a change Mollie never makes (a
   * final status changing); the returned promise settles once the first webhook attempt has.
   */
  setPaymentStatus(
    payment: PaymentRecord,
    status: PaymentStatus,
    options: StatusOptions = {},
  ): Promise<void> {
    if (payment.status === status) return Promise.resolve();
    if (!canBecome(payment.status, status)) {
      throw new Error(`Mollie stand-in: payment ${payment.id} cannot go from ${payment.status} to ${status}`);
    }
    const now = new Date();
    payment.status = status;
    if (status !== "open" && status !== "pending") clearTimeout(payment.expiryTimer);
    if (payment.method === null && status !== "canceled" && status !== "expired") {
      payment.method = options.method ?? payment.offeredMethods?.[0] ?? "creditcard";
    }
    if (status === "authorized") payment.authorizedAt = now;
    if (status === "paid") {
      payment.paidAt = now;
      payment.details = paidDetails(payment.method);
      this.recordPaymentMovement(payment, now);
    }
    if (status === "canceled") payment.canceledAt = now;
    if (status === "expired") payment.expiredAt = now;
    if (status === "failed") {
      payment.failedAt = now;
      payment.details = failedDetails(payment.method, options.failureReason);
    }
    return PAYMENT_WEBHOOK.has(status)
      ? this.webhooks.notify(payment.webhookUrl, payment.id)
      : Promise.resolve();
  }

  setRefundStatus(refund: RefundRecord, payment: PaymentRecord, status: RefundStatus): Promise<void> {
    if (refund.status === status) return Promise.resolve();
    if (!NEXT_REFUND[refund.status].includes(status)) {
      throw new Error(`Mollie stand-in: refund ${refund.id} cannot go from ${refund.status} to ${status}`);
    }
    refund.status = status;
    if (status === "failed" || status === "canceled")
      this.recordRefundMovement(refund, payment, "returned-refund");
    return REFUND_WEBHOOK.has(status)
      ? this.webhooks.notify(payment.webhookUrl, payment.id)
      : Promise.resolve();
  }

  /** An open payment expires on its own at `expiresAt`, calling the webhook. */
  scheduleExpiry(payment: PaymentRecord): void {
    const timer = setTimeout(
      () => {
        if (payment.status === "open" || payment.status === "pending")
          void this.setPaymentStatus(payment, "expired");
      },
      Math.max(0, payment.expiresAt.getTime() - Date.now()),
    );
    timer.unref();
    payment.expiryTimer = timer;
  }

  /** A refund takes its amount off the balance when made; a failed or canceled one gives it back. */
  recordRefundMovement(
    refund: RefundRecord,
    payment: PaymentRecord,
    type: "refund" | "returned-refund",
  ): void {
    const sign = type === "refund" ? -1 : 1;
    payment.account.transactions.push({
      id: newId("baltr"),
      type,
      createdAt: new Date(),
      initial: { currency: refund.amount.currency, minor: sign * refund.amount.minor },
      deductions: { currency: refund.amount.currency, minor: 0 },
      paymentId: payment.id,
      paymentDescription: payment.description,
      refundId: refund.id,
      refundDescription: refund.description,
    });
  }

  private recordPaymentMovement(payment: PaymentRecord, at: Date): void {
    const fee: Money = paymentFee(payment.amount);
    payment.account.transactions.push({
      id: newId("baltr"),
      type: "payment",
      createdAt: at,
      initial: payment.amount,
      deductions: { currency: fee.currency, minor: -fee.minor },
      paymentId: payment.id,
      paymentDescription: payment.description,
    });
  }
}

/** Test-mode details of a completed payment, by method (get-payment's method-specific response parameters). */
function paidDetails(method: string | null): Record<string, unknown> | null {
  if (method === "creditcard") {
    return {
      cardHolder: "T. TEST",
      cardNumber: "6787",
      cardFingerprint: "stand-in-fingerprint",
      cardAudience: "consumer",
      cardLabel: "Mastercard",
      cardCountryCode: "NL",
      cardSecurity: "normal",
      feeRegion: "other",
    };
  }
  if (method === "ideal" || method === "bancontact" || method === "banktransfer") {
    return { consumerName: "T. TEST", consumerAccount: "NL53INGB0654422370", consumerBic: "INGBNL2A" };
  }
  return null;
}

function failedDetails(method: string | null, reason = "card_declined"): Record<string, unknown> | null {
  if (method === "creditcard") {
    return { failureReason: reason, failureMessage: "The card was declined (test mode)." };
  }
  if (method === "bancontact") return { failureReason: reason };
  return null;
}

export function isFinal(status: PaymentStatus): boolean {
  return FINAL_PAYMENT_STATUSES.has(status);
}
