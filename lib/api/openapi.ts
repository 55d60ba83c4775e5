import { createPaymentSchema, paymentListItemSchema, paymentSchema } from "@/lib/payments/schemas";
import { API_ERRORS, MAX_BODY_BYTES } from "./api-errors";
import { customerPaths, customerSchemas, paymentFilterParameters } from "./openapi-customers";
import { eventStreamPaths, requestLogSchemas } from "./openapi-events";
import { inboxPaths, inboxSchemas } from "./openapi-inbox";
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
import { paymentLinkPaths, paymentLinkSchemas } from "./openapi-payment-links";
import { platformPaths, platformSchemas } from "./openapi-platform";
import { refundPaths, refundSchemas } from "./openapi-refunds";
import { webhooksSection } from "./openapi-webhooks";

/** OpenAPI 3.1 for the merchant API, generated from the same zod schemas the handlers validate with. */
export function buildOpenApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Payments API",
      version: "1.0.0",
      description: `Bearer-token API for merchants. Every response carries X-RateLimit-Limit and X-RateLimit-Remaining. Request bodies are JSON objects of at most ${MAX_BODY_BYTES} bytes.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API token from the dashboard: pay_…" },
      },
      schemas: {
        CreatePayment: schemaOf(createPaymentSchema, "input"),
        PaymentListItem: schemaOf(paymentListItemSchema),
        Payment: schemaOf(paymentSchema),
        ValidationError: {
          type: "object",
          properties: {
            message: { type: "string", examples: [API_ERRORS.validationFailed.message] },
            errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
          },
          required: ["message", "errors"],
        },
        ...platformSchemas,
        ...requestLogSchemas,
        ...inboxSchemas,
        ...refundSchemas,
        ...paymentLinkSchemas,
        ...customerSchemas,
      },
    },
    webhooks: webhooksSection,
    paths: {
      "/api/payments": {
        get: {
          summary: "List payments, newest first, filtered by any of its parameters",
          parameters: [...pageParameters, ...paymentFilterParameters],
          responses: {
            "200": pagedResponse(
              "A page of payments (a page past the end has empty data); meta.total counts what matches the filters, and the links carry them.",
              "#/components/schemas/PaymentListItem",
            ),
            "422": validationErrorResponse("Bad page, perPage or filter value; errors names the parameter."),
            ...common,
          },
        },
        post: {
          summary: "Create a payment (status pending; emits payment.pending)",
          parameters: [
            {
              name: "Idempotency-Key",
              in: "header",
              required: false,
              description:
                "Same key and body within 24 h replays the first response without a new payment; another body gives 409.",
              schema: { type: "string", maxLength: 255 },
            },
            {
              name: "Prefer",
              in: "header",
              required: false,
              description:
                '`return=representation`: the answer carries the payment (`data`), so one request makes and reads it. Without it the body is `{"message"}` only.',
              schema: { type: "string", examples: ["return=representation"] },
            },
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/CreatePayment" } } },
          },
          responses: {
            "201": createdResponse(
              "Created. With `Prefer: return=representation`, `data` is the payment as retrieved.",
              "/api/payments/{id}",
              "Payment created successfully",
              "#/components/schemas/RetrievedPayment",
              { dataAlways: false },
            ),
            "400": errorResponse(
              "malformedJson",
              "The body is not JSON, not a JSON object, or nested too deeply.",
            ),
            "403": errorResponse("unauthorized", "The token is read-only."),
            "409": errorResponse("idempotencyKeyReused"),
            ...bodyRefusals,
            "422": validationErrorResponse("Validation failed."),
            ...common,
          },
        },
      },
      "/api/payments/{id}": {
        get: {
          summary: "Retrieve one payment, with what refunds have taken from it",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: {
            "200": dataResponse("The payment.", "#/components/schemas/RetrievedPayment"),
            "403": errorResponse("unauthorized", "The payment belongs to another merchant."),
            "404": errorResponse("notFound", "No such payment."),
            ...common,
          },
        },
      },
      ...refundPaths,
      ...paymentLinkPaths,
      ...customerPaths,
      ...platformPaths,
      ...eventStreamPaths,
      ...inboxPaths,
    },
  };
}
