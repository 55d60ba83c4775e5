import { findPayment } from "@/lib/payments/queries";
import { cancelPayment, settlePayment } from "@/lib/payments/settlement";
import { settleRefund } from "@/lib/refunds/settlement";
import { API_ERRORS } from "./api-errors";
import { defineRoute } from "./define-route";
import { actionKeyParameter, actOnce } from "./idempotency-key";
import { dataResponse, jsonBody, ref, validationErrorResponse } from "./openapi-parts";
import { refuseUnowned } from "./owned";
import { idOf, notYours, pathId } from "./refund-routes";
import { asApiAnswer, jsonResponse } from "./responses";

// Cancellation and the simulator's test helpers (DESIGN.md, "Refunds and cancellation").

/** A pending payment has no refunds: what the retrieve shape adds is zero. */
const NOTHING_REFUNDED = { amount_refunded: "0.00", amount_refundable: "0.00" };

/** POST /api/payments/{id}/cancel: pending → failed ("Canceled by the merchant."), else 409. */
export const cancelPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/payments/{id}/cancel",
  scope: "write",
  summary:
    'Cancel a pending payment: it fails with failure_code `canceled` and "Canceled by the merchant." (emits payment.failed)',
  params: idOf("payment"),
  headers: [actionKeyParameter],
  responses: {
    200: dataResponse("The canceled payment.", ref("RetrievedPayment")),
    ...notYours("payment"),
    409: {
      description: "The payment is not pending.",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              message: {
                type: "string",
                examples: [
                  "Only a pending payment can be canceled.",
                  API_ERRORS.idempotencyKeyReused.message,
                ],
              },
            },
          },
        },
      },
    },
  },
  handler: async (context) => {
    const { merchantId } = context;
    const paymentId = pathId(context.params.id);
    const { result, replayedHeader } = await asApiAnswer(
      actOnce(
        context,
        { target: "payment", meaning: { cancel_payment: paymentId } },
        async (executor) => ({
          ...(await cancelPayment(executor, paymentId, merchantId)),
          ...NOTHING_REFUNDED,
        }),
        async (executor, id) => (await findPayment(executor, merchantId, id))?.payment,
      ),
    );
    return jsonResponse(200, { data: result }, replayedHeader);
  },
});

/** POST /api/test-helpers/payments/{id}/settle `{outcome}`: what the simulated processor would do now. */
export const settlePaymentHelperRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/payments/{id}/settle",
  scope: "write",
  summary: "Test helper: settle a pending payment now, as the simulated processor would",
  params: idOf("payment"),
  body: jsonBody("SettlePayment"),
  responses: {
    200: dataResponse("The settled payment.", ref("RetrievedPayment")),
    ...notYours("payment"),
    409: { description: "Already completed or failed (final)." },
    422: validationErrorResponse(
      `outcome must be completed or failed (${API_ERRORS.validationFailed.message}).`,
    ),
  },
  handler: async ({ db, merchantId, params, body }) => {
    const paymentId = pathId(params.id);
    if (!(await findPayment(db, merchantId, paymentId)))
      return refuseUnowned(db, "payments", paymentId, merchantId);
    await settlePayment(db, paymentId, body, merchantId, "test_helper");
    return jsonResponse(200, { data: (await findPayment(db, merchantId, paymentId))!.payment });
  },
});

/** POST /api/test-helpers/refunds/{id}/settle `{outcome}`. */
export const settleRefundHelperRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/refunds/{id}/settle",
  scope: "write",
  summary: "Test helper: settle a pending refund now (succeeded or failed)",
  params: idOf("refund"),
  body: jsonBody("SettleRefund"),
  responses: {
    200: dataResponse("The settled refund.", ref("Refund")),
    ...notYours("refund"),
    409: { description: "Already succeeded or failed (final)." },
    422: validationErrorResponse("outcome must be succeeded or failed."),
  },
  handler: async ({ db, merchantId, params, body }) => {
    const refund = await asApiAnswer(settleRefund(db, pathId(params.id), body, merchantId, "test_helper"));
    return jsonResponse(200, { data: refund });
  },
});
