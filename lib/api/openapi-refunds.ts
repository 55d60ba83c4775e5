import { retrievedPaymentSchema } from "@/lib/payments/schemas";
import { settleInputSchema } from "@/lib/payments/settlement";
import { createRefundSchema, refundSchema, settleRefundSchema } from "@/lib/refunds/schemas";
import { API_ERRORS } from "./api-errors";
import {
  bodyRefusals,
  common,
  createdResponse,
  dataResponse,
  errorResponse,
  pagedResponse,
  pageParameters,
  schemaOf,
  validationErrorResponse,
} from "./openapi-parts";

// Refunds, cancellation and the simulator's test helpers in the OpenAPI document.

export const refundSchemas = {
  RetrievedPayment: schemaOf(retrievedPaymentSchema),
  CreateRefund: schemaOf(createRefundSchema, "input"),
  Refund: schemaOf(refundSchema),
  SettlePayment: schemaOf(settleInputSchema, "input"),
  SettleRefund: schemaOf(settleRefundSchema, "input"),
};

const id = (of: string) => [
  { name: "id", in: "path", required: true, description: `The ${of}'s id.`, schema: { type: "integer" } },
];
const jsonBody = (ref: string, required = true) => ({
  required,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const notYours = (what: string) => ({
  "403": errorResponse("unauthorized", `The ${what} belongs to another merchant, or the token is read-only.`),
  "404": errorResponse("notFound", `No such ${what}.`),
});

export const refundPaths = {
  "/api/payments/{id}/refunds": {
    get: {
      summary: "List a payment's refunds, newest first",
      parameters: [...id("payment"), ...pageParameters],
      responses: {
        "200": pagedResponse("A page of refunds.", "#/components/schemas/Refund"),
        ...notYours("payment"),
        "422": validationErrorResponse("Bad page or perPage."),
        ...common,
      },
    },
    post: {
      summary: "Refund part or all of a completed payment (emits refund.created)",
      parameters: [
        ...id("payment"),
        {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "As on payment creation: same key and body within 24 h replays the refund; another body, 409.",
          schema: { type: "string", maxLength: 255 },
        },
      ],
      requestBody: jsonBody("CreateRefund", false),
      responses: {
        "201": createdResponse(
          "Created; the body carries the refund (pending).",
          "/api/refunds/{id}",
          "Refund created successfully",
          "#/components/schemas/Refund",
        ),
        "400": errorResponse("malformedJson"),
        ...notYours("payment"),
        "409": errorResponse("idempotencyKeyReused"),
        ...bodyRefusals,
        "422": validationErrorResponse(
          'Validation failed, the payment is not completed (errors.payment: "Only a completed payment can be refunded."), or the amount is more than is refundable (errors.amount names the maximum).',
        ),
        ...common,
      },
    },
  },
  "/api/refunds/{id}": {
    get: {
      summary: "Retrieve one refund",
      parameters: id("refund"),
      responses: {
        "200": dataResponse("The refund.", "#/components/schemas/Refund"),
        ...notYours("refund"),
        ...common,
      },
    },
  },
  "/api/payments/{id}/cancel": {
    post: {
      summary:
        'Cancel a pending payment: it fails with failure_code `canceled` and "Canceled by the merchant." (emits payment.failed)',
      parameters: id("payment"),
      responses: {
        "200": dataResponse("The canceled payment.", "#/components/schemas/RetrievedPayment"),
        ...notYours("payment"),
        "409": {
          description: "The payment is not pending.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  message: { type: "string", examples: ["Only a pending payment can be canceled."] },
                },
              },
            },
          },
        },
        ...bodyRefusals,
        ...common,
      },
    },
  },
  "/api/test-helpers/payments/{id}/settle": {
    post: {
      summary: "Test helper: settle a pending payment now, as the simulated processor would",
      parameters: id("payment"),
      requestBody: jsonBody("SettlePayment"),
      responses: {
        "200": dataResponse("The settled payment.", "#/components/schemas/RetrievedPayment"),
        ...notYours("payment"),
        "409": { description: "Already completed or failed (final)." },
        ...bodyRefusals,
        "422": validationErrorResponse(
          `outcome must be completed or failed (${API_ERRORS.validationFailed.message}).`,
        ),
        ...common,
      },
    },
  },
  "/api/test-helpers/refunds/{id}/settle": {
    post: {
      summary: "Test helper: settle a pending refund now (succeeded or failed)",
      parameters: id("refund"),
      requestBody: jsonBody("SettleRefund"),
      responses: {
        "200": dataResponse("The settled refund.", "#/components/schemas/Refund"),
        ...notYours("refund"),
        "409": { description: "Already succeeded or failed (final)." },
        ...bodyRefusals,
        "422": validationErrorResponse("outcome must be succeeded or failed."),
        ...common,
      },
    },
  },
};
