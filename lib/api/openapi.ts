import { z } from "zod";
import { createPaymentSchema, paymentListItemSchema, paymentSchema } from "@/lib/payments/schemas";
import { API_ERRORS, MAX_BODY_BYTES, type ApiErrorName } from "./api-errors";

function schemaOf(schema: z.ZodType, io: "input" | "output" = "output") {
  const jsonSchema: Record<string, unknown> = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  delete jsonSchema.$schema;
  return jsonSchema;
}

const message = (example: string) => ({
  type: "object",
  properties: { message: { type: "string", examples: [example] } },
  required: ["message"],
});

/** An error answer from the one table, with a description for this endpoint when it says more. */
const errorResponse = (name: ApiErrorName, description: string = API_ERRORS[name].when) => ({
  description,
  content: { "application/json": { schema: message(API_ERRORS[name].message) } },
});

const validationErrorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ValidationError" } } },
});

const rateLimitHeaders = {
  "X-RateLimit-Limit": {
    description: "Requests accepted per minute for this token.",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Requests left before 429.", schema: { type: "integer" } },
};

const common = {
  "401": errorResponse("unauthenticated"),
  "429": {
    ...errorResponse("tooManyAttempts"),
    headers: {
      "Retry-After": {
        description: "Seconds until a request will be accepted.",
        schema: { type: "integer" },
      },
    },
  },
  "500": errorResponse("serverError"),
  "503": {
    ...errorResponse("serviceUnavailable"),
    headers: {
      "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
    },
  },
};

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
      },
    },
    paths: {
      "/api/payments": {
        get: {
          summary: "List payments, newest first",
          parameters: [
            { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
            {
              name: "perPage",
              in: "query",
              schema: { type: "integer", minimum: 1, maximum: 100, default: 10 },
            },
          ],
          responses: {
            "200": {
              description: "A page of payments (a page past the end has empty data).",
              headers: rateLimitHeaders,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      data: { type: "array", items: { $ref: "#/components/schemas/PaymentListItem" } },
                      links: {
                        type: "object",
                        properties: Object.fromEntries(
                          ["first", "last", "prev", "next"].map((key) => [key, { type: ["string", "null"] }]),
                        ),
                      },
                      meta: {
                        type: "object",
                        properties: Object.fromEntries(
                          ["current_page", "from", "last_page", "per_page", "to", "total"].map((key) => [
                            key,
                            { type: ["integer", "null"] },
                          ]),
                        ),
                      },
                    },
                  },
                },
              },
            },
            "422": validationErrorResponse("Bad page or perPage."),
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
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/CreatePayment" } } },
          },
          responses: {
            "201": {
              description: "Created.",
              headers: {
                Location: { description: "/api/payments/{id}", schema: { type: "string" } },
                ...rateLimitHeaders,
              },
              content: { "application/json": { schema: message("Payment created successfully") } },
            },
            "400": errorResponse("malformedJson", "The body is not JSON, or not a JSON object."),
            "403": errorResponse("unauthorized", "The token is read-only."),
            "409": errorResponse("idempotencyKeyReused"),
            "413": errorResponse("bodyTooLarge"),
            "422": validationErrorResponse("Validation failed."),
            ...common,
          },
        },
      },
      "/api/payments/{id}": {
        get: {
          summary: "Retrieve one payment",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: {
            "200": {
              description: "The payment.",
              headers: rateLimitHeaders,
              content: {
                "application/json": {
                  schema: { type: "object", properties: { data: { $ref: "#/components/schemas/Payment" } } },
                },
              },
            },
            "403": errorResponse("unauthorized", "The payment belongs to another merchant."),
            "404": errorResponse("notFound", "No such payment."),
            ...common,
          },
        },
      },
    },
  };
}
