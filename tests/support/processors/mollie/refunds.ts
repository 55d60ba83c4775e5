// The Refunds API for payments (docs.mollie.com/reference/v2/refunds-api/*): create, get, list, cancel, and the
// account-wide list. Statuses and duplicate detection follow docs.mollie.com/payments/refunds.
import { apiError, isApiResponse, newId, type ApiResponse } from "./common";
import type { RouteContext } from "./context";
import { refundedMinor } from "./lifecycle";
import { formatAmount, isMoney, parseAmount } from "./money";
import { listPage } from "./pagination";
import { notFound } from "./payments";
import { refundJson } from "./resources";
import type { RefundRecord } from "./store";

const DESCRIPTION_LIMIT = 140;
/** "We will prevent duplicate refunds in a short time frame": the same amount within the last hour. */
const DUPLICATE_WINDOW_MS = 60 * 60_000;

export function createRefund(ctx: RouteContext, paymentId: string): ApiResponse {
  const payment = ctx.store.payment(ctx.account, paymentId);
  if (!payment) return notFound(paymentId);
  const { body } = ctx;
  const amount = parseAmount(body.amount, "amount");
  if (!isMoney(amount)) return amount;
  if (amount.currency !== payment.amount.currency) {
    return apiError(422, "The currency must be the same as the payment's currency", "amount.currency");
  }
  if (amount.minor <= 0) return apiError(422, "The amount must be higher than zero", "amount");
  if (body.description !== undefined && body.description !== null && typeof body.description !== "string") {
    return apiError(422, "The description is invalid", "description");
  }
  const description = typeof body.description === "string" ? body.description : "";
  if (description.length > DESCRIPTION_LIMIT) {
    return apiError(422, `The description may hold at most ${DESCRIPTION_LIMIT} characters`, "description");
  }
  if (payment.status !== "paid") {
    return apiError(422, `The payment ${payment.id} cannot be refunded, its status is ${payment.status}`);
  }
  const remaining = payment.amount.minor - refundedMinor(payment, ctx.store.refunds);
  if (amount.minor > remaining) {
    const left = formatAmount({ currency: amount.currency, minor: remaining });
    return apiError(
      422,
      `The amount is higher than the amount that can still be refunded (${left.currency} ${left.value})`,
      "amount",
    );
  }
  const now = new Date();
  const duplicate = payment.refundIds.some((id) => {
    const other = ctx.store.refunds.get(id);
    return (
      other !== undefined &&
      other.amount.minor === amount.minor &&
      other.status !== "failed" &&
      other.status !== "canceled" &&
      now.getTime() - other.createdAt.getTime() < DUPLICATE_WINDOW_MS
    );
  });
  if (duplicate) return apiError(409, "A duplicate refund has been detected");
  const refund: RefundRecord = {
    id: newId("re"),
    paymentId: payment.id,
    account: ctx.account,
    createdAt: now,
    status: "pending",
    amount,
    description,
    metadata: body.metadata ?? null,
  };
  ctx.store.refunds.set(refund.id, refund);
  payment.refundIds.push(refund.id);
  ctx.lifecycle.recordRefundMovement(refund, payment, "refund");
  return { status: 201, body: refundJson(refund, ctx.base) };
}

function findRefund(ctx: RouteContext, paymentId: string, refundId: string): RefundRecord | ApiResponse {
  if (!ctx.store.payment(ctx.account, paymentId)) return notFound(paymentId);
  const refund = ctx.store.refund(ctx.account, refundId);
  if (!refund || refund.paymentId !== paymentId)
    return apiError(404, `No refund exists with token ${refundId}.`);
  return refund;
}

/** "Trying to retrieve a canceled refund will result in a 404 response." */
export function getRefund(ctx: RouteContext, paymentId: string, refundId: string): ApiResponse {
  const refund = findRefund(ctx, paymentId, refundId);
  if (isApiResponse(refund)) return refund;
  const found = refund;
  if (found.status === "canceled") return apiError(404, `No refund exists with token ${refundId}.`);
  return { status: 200, body: refundJson(found, ctx.base) };
}

/** DELETE: only a queued or pending refund can be canceled; 204 on success. */
export function cancelRefund(ctx: RouteContext, paymentId: string, refundId: string): ApiResponse {
  const refund = findRefund(ctx, paymentId, refundId);
  if (isApiResponse(refund)) return refund;
  const found = refund;
  const payment = ctx.store.payments.get(found.paymentId);
  if (!payment || (found.status !== "queued" && found.status !== "pending")) {
    return apiError(422, `The refund cannot be canceled, its status is ${found.status}`);
  }
  void ctx.lifecycle.setRefundStatus(found, payment, "canceled");
  return { status: 204 };
}

export function listPaymentRefunds(ctx: RouteContext, paymentId: string): ApiResponse {
  const payment = ctx.store.payment(ctx.account, paymentId);
  if (!payment) return notFound(paymentId);
  const refunds = payment.refundIds.flatMap((id) => ctx.store.refunds.get(id) ?? []).reverse();
  return listPage({
    items: refunds,
    query: ctx.query,
    base: ctx.base,
    path: `/v2/payments/${paymentId}/refunds`,
    name: "refunds",
    documentation: "refunds-api/list-payment-refunds",
    render: (refund) => refundJson(refund, ctx.base),
  });
}

export function listAllRefunds(ctx: RouteContext): ApiResponse {
  const refunds = [...ctx.store.refunds.values()]
    .filter((refund) => refund.account === ctx.account)
    .reverse();
  return listPage({
    items: refunds,
    query: ctx.query,
    base: ctx.base,
    path: "/v2/refunds",
    name: "refunds",
    documentation: "refunds-api/list-refunds",
    render: (refund) => refundJson(refund, ctx.base),
  });
}
