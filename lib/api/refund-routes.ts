import { pageQuerySchema } from "@/lib/platform/list-query";
import { idParam } from "@/lib/platform/validation";
import { refundsAtProcessor } from "@/lib/processors/refunds";
import { createRefund } from "@/lib/refunds/create-refund";
import { findRefund, listMerchantRefunds, listPaymentRefunds } from "@/lib/refunds/queries";
import { listRefundsQuerySchema } from "@/lib/refunds/schemas";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import { idempotencyKeyParameter, readIdempotencyKey } from "./idempotency-key";
import {
  createdResponse,
  dataResponse,
  errorResponse,
  jsonBody,
  pagedResponse,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { refuseUnowned } from "./owned";
import { paginationEnvelope } from "./pagination";
import { asApiAnswer, jsonResponse } from "./responses";

/**
 * Refunds (DESIGN.md, "Refunds and cancellation"). Another merchant's payment or refund is a 403 with the
 * contract's words, none (or a malformed id) a 404.
 */

/** The id in the path, or a 404: a malformed id names nothing. */
export function pathId(raw: string): number {
  const id = idParam.safeParse(raw);
  if (!id.success) throw HttpError.of("notFound");
  return id.data;
}

/** The `{id}` of a payment's or a refund's path, as the document shows it. */
export const idOf = (what: string) => ({
  id: { description: `The ${what}'s id.`, schema: { type: "integer" } },
});

export const notYours = (what: string) => ({
  403: errorResponse("unauthorized", `The ${what} belongs to another merchant, or the token is read-only.`),
  404: errorResponse("notFound", `No such ${what}.`),
});

/** GET /api/payments/{id}/refunds: the payment's refunds, newest first, in Laravel's envelope. */
export const listRefundsRoute = defineRoute({
  method: "GET",
  path: "/api/payments/{id}/refunds",
  scope: "read",
  summary: "List a payment's refunds, newest first",
  params: idOf("payment"),
  query: pageQuerySchema,
  responses: {
    200: pagedResponse("A page of refunds.", ref("Refund")),
    ...notYours("payment"),
    422: validationErrorResponse("Bad page or perPage."),
  },
  handler: async ({ db, merchantId, params, url, query: { page, perPage } }) => {
    const paymentId = pathId(params.id);
    const found = await listPaymentRefunds(db, merchantId, paymentId, page, perPage);
    if (!found) return refuseUnowned(db, "payments", paymentId, merchantId);
    const { items, total } = found;
    return jsonResponse(200, { data: items, ...paginationEnvelope(url, page, perPage, total, items.length) });
  },
});

/** POST /api/payments/{id}/refunds: 201 with the refund, and its Location. */
export const createRefundRoute = defineRoute({
  method: "POST",
  path: "/api/payments/{id}/refunds",
  scope: "write",
  summary: "Refund part or all of a completed payment (emits refund.created)",
  params: idOf("payment"),
  headers: [
    idempotencyKeyParameter(
      "As on payment creation: same key and body within 24 h replays the refund; another body, 409.",
    ),
  ],
  body: jsonBody("CreateRefund", { required: false }),
  responses: {
    201: createdResponse(
      "Created; the body carries the refund (pending; a processor's payment's may have succeeded or failed at once).",
      "/api/refunds/{id}",
      "Refund created successfully",
      ref("Refund"),
    ),
    400: errorResponse("malformedJson"),
    ...notYours("payment"),
    409: errorResponse("idempotencyKeyReused"),
    422: validationErrorResponse(
      'Validation failed, the payment is not completed (errors.payment: "Only a completed payment can be refunded."), or the amount is more than is refundable (errors.amount names the maximum).',
    ),
  },
  handler: async ({ db, env, merchantId, token, params, request, body, extendDeadline }) => {
    const paymentId = pathId(params.id);
    const idempotencyKey = readIdempotencyKey(request);
    // A processor's payment's refund is sent there before the answer (DESIGN.md, "Processors").
    if (token.processor !== null) extendDeadline(env.PROCESSOR_TIMEOUT + env.API_DEADLINE_MS);
    const { refundId, replayed, refund } = await asApiAnswer(
      createRefund(db, merchantId, paymentId, body, {
        autoSettleMs: env.PAYMENTS_AUTO_SETTLE_MS,
        idempotencyKey,
        atProcessor: refundsAtProcessor(db, merchantId),
      }),
    );
    // A replay answers with the refund as it is now (it may have settled since).
    const data = refund ?? (await findRefund(db, merchantId, refundId))!;
    return jsonResponse(
      201,
      { message: "Refund created successfully", data },
      { Location: `/api/refunds/${refundId}`, ...(replayed ? { "Idempotent-Replayed": "true" } : {}) },
    );
  },
});

/** GET /api/refunds/{id}. */
export const showRefundRoute = defineRoute({
  method: "GET",
  path: "/api/refunds/{id}",
  scope: "read",
  summary: "Retrieve one refund",
  params: idOf("refund"),
  responses: { 200: dataResponse("The refund.", ref("Refund")), ...notYours("refund") },
  handler: async ({ db, merchantId, params }) => {
    const refundId = pathId(params.id);
    const found = await findRefund(db, merchantId, refundId);
    if (!found) return refuseUnowned(db, "refunds", refundId, merchantId);
    return jsonResponse(200, { data: found });
  },
});

/** GET /api/refunds: every refund of the merchant, newest first, by `status` and `payment_id`. */
export const listAllRefundsRoute = defineRoute({
  method: "GET",
  path: "/api/refunds",
  scope: "read",
  summary: "List every refund of the merchant, newest first",
  query: listRefundsQuerySchema,
  responses: {
    200: pagedResponse("A page of refunds.", ref("Refund")),
    422: validationErrorResponse("Bad page, perPage, status or payment_id."),
  },
  handler: async ({ read, merchantId, url, query }) => {
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
  },
});
