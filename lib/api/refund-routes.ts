import { findPayment } from "@/lib/payments/queries";
import { pageQuerySchema } from "@/lib/payments/schemas";
import { cancelPayment, settlePayment } from "@/lib/payments/settlement";
import { idParam, parseInput } from "@/lib/platform/validation";
import { createRefund } from "@/lib/refunds/create-refund";
import { findRefund, listMerchantRefunds, listPaymentRefunds } from "@/lib/refunds/queries";
import { listRefundsQuerySchema } from "@/lib/refunds/schemas";
import { settleRefund } from "@/lib/refunds/settlement";
import { HttpError } from "./api-errors";
import { apiRoute } from "./api-route";
import { readIdempotencyKey } from "./idempotency-key";
import { paginationEnvelope, queryValue } from "./pagination";
import { asApiAnswer, jsonResponse } from "./responses";

/**
 * Refunds, cancellation and the simulator's test helpers (DESIGN.md, "Refunds and cancellation"). Another
 * merchant's payment or refund is a 403 with the contract's words, none (or a malformed id) a 404.
 */
const writeScope = { requiresWrite: true };

/** The id in the path, or a 404: a malformed id names nothing. */
function pathId(raw: string): number {
  const id = idParam.safeParse(raw);
  if (!id.success) throw HttpError.of("notFound");
  return id.data;
}

/** POST /api/payments/{id}/refunds: 201 with the refund, and its Location. */
export const createRefundRoute = apiRoute<{ id: string }>(
  async ({ db, env, merchantId, params, request, body }) => {
    const paymentId = pathId(params.id);
    const idempotencyKey = readIdempotencyKey(request);
    const { refundId, replayed, refund } = await asApiAnswer(
      createRefund(db, merchantId, paymentId, body, {
        autoSettleMs: env.PAYMENTS_AUTO_SETTLE_MS,
        idempotencyKey,
      }),
    );
    // A replay answers with the refund as it is now (it may have settled since).
    const data = refund ?? (await findRefund(db, refundId))!.refund;
    return jsonResponse(
      201,
      { message: "Refund created successfully", data },
      { Location: `/api/refunds/${refundId}`, ...(replayed ? { "Idempotent-Replayed": "true" } : {}) },
    );
  },
  writeScope,
);

/** GET /api/payments/{id}/refunds: the payment's refunds, newest first, in Laravel's envelope. */
export const listRefundsRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params, url }) => {
  const paymentId = pathId(params.id);
  const { page, perPage } = parseInput(pageQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
  });
  const found = await listPaymentRefunds(db, paymentId, page, perPage);
  if (!found) throw HttpError.of("notFound");
  if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
  const { items, total } = found;
  return jsonResponse(200, { data: items, ...paginationEnvelope(url, page, perPage, total, items.length) });
});

/** GET /api/refunds/{id}. */
export const showRefundRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const found = await findRefund(db, pathId(params.id));
  if (!found) throw HttpError.of("notFound");
  if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
  return jsonResponse(200, { data: found.refund });
});

/** A pending payment has no refunds: what the retrieve shape adds is zero. */
const NOTHING_REFUNDED = { amount_refunded: "0.00", amount_refundable: "0.00" };

/** POST /api/payments/{id}/cancel: pending → failed ("Canceled by the merchant."), else 409. */
export const cancelPaymentRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const payment = await asApiAnswer(cancelPayment(db, pathId(params.id), merchantId));
  return jsonResponse(200, { data: { ...payment, ...NOTHING_REFUNDED } });
}, writeScope);

/** POST /api/test-helpers/payments/{id}/settle `{outcome}`: what the simulated processor would do now. */
export const settlePaymentHelperRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params, body }) => {
  const paymentId = pathId(params.id);
  const found = await findPayment(db, paymentId);
  if (!found) throw HttpError.of("notFound");
  if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
  await settlePayment(db, paymentId, body, merchantId, "test_helper");
  return jsonResponse(200, { data: (await findPayment(db, paymentId))!.payment });
}, writeScope);

/** POST /api/test-helpers/refunds/{id}/settle `{outcome}`. */
export const settleRefundHelperRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params, body }) => {
  const refund = await asApiAnswer(settleRefund(db, pathId(params.id), body, merchantId, "test_helper"));
  return jsonResponse(200, { data: refund });
}, writeScope);

/** GET /api/refunds: every refund of the merchant, newest first, by `status` and `payment_id`. */
export const listAllRefundsRoute = apiRoute(async ({ read, merchantId, url }) => {
  const query = parseInput(listRefundsQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
    status: queryValue(url, "status"),
    payment_id: queryValue(url, "payment_id"),
  });
  const { items, total } = await read((db) =>
    listMerchantRefunds(
      db,
      merchantId,
      { status: query.status, paymentId: query.payment_id },
      query.page,
      query.perPage,
    ),
  );
  const kept = { status: query.status, payment_id: query.payment_id };
  return jsonResponse(200, {
    data: items,
    ...paginationEnvelope(url, query.page, query.perPage, total, items.length, kept),
  });
});
