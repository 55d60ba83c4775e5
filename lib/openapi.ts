import { z } from "zod";
import { MAX_BODY_BYTES } from "./api/request-body";
import { createPaymentSchema, paymentListItemSchema, paymentSchema } from "./payment-schemas";

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

const errorResponse = (description: string, example: string) => ({
  description,
  content: { "application/json": { schema: message(example) } },
});

const rateLimitHeaders = {
  "X-RateLimit-Limit": { description: "Requests accepted per minute for this token.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left before 429.", schema: { type: "integer" } },
};

const common = {
  "401": errorResponse("Token missing, malformed, unknown, expired or revoked.", "Unauthenticated."),
  "429": {
    ...errorResponse("More than the token's limit of requests in a minute; see Retry-After.", "Too Many Attempts."),
    headers: { "Retry-After": { description: "Seconds until a request will be accepted.", schema: { type: "integer" } } },
  },
  "500": errorResponse("Unexpected failure; nothing about it is disclosed.", "Server Error"),
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
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API token from the dashboard: pay_…" } },
      schemas: {
        CreatePayment: schemaOf(createPaymentSchema, "input"),
        PaymentListItem: schemaOf(paymentListItemSchema),
        Payment: schemaOf(paymentSchema),
        ValidationError: {
          type: "object",
          properties: {
            message: { type: "string", examples: ["The given data was invalid."] },
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
            { name: "perPage", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 10 } },
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
                        properties: Object.fromEntries(["first", "last", "prev", "next"].map((key) => [key, { type: ["string", "null"] }])),
                      },
                      meta: {
                        type: "object",
                        properties: Object.fromEntries(
                          ["current_page", "from", "last_page", "per_page", "to", "total"].map((key) => [key, { type: ["integer", "null"] }]),
                        ),
                      },
                    },
                  },
                },
              },
            },
            "422": { description: "Bad page or perPage.", content: { "application/json": { schema: { $ref: "#/components/schemas/ValidationError" } } } },
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
              description: "Same key and body within 24 h replays the first response without a new payment; another body gives 409.",
              schema: { type: "string", maxLength: 255 },
            },
          ],
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/CreatePayment" } } } },
          responses: {
            "201": {
              description: "Created.",
              headers: { Location: { description: "/api/payments/{id}", schema: { type: "string" } }, ...rateLimitHeaders },
              content: { "application/json": { schema: message("Payment created successfully") } },
            },
            "400": errorResponse("The body is not a JSON object.", "The request body is not valid JSON."),
            "403": errorResponse("The token is read-only.", "This action is unauthorized."),
            "409": errorResponse("The Idempotency-Key was used with another body.", "This Idempotency-Key was already used with a different request body."),
            "413": errorResponse("The body is larger than 16 KiB.", "The request body must not be larger than 16 KiB."),
            "422": { description: "Validation failed.", content: { "application/json": { schema: { $ref: "#/components/schemas/ValidationError" } } } },
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
              content: { "application/json": { schema: { type: "object", properties: { data: { $ref: "#/components/schemas/Payment" } } } } },
            },
            "403": errorResponse("The payment belongs to another merchant.", "This action is unauthorized."),
            "404": errorResponse("No such payment.", "Not Found"),
            ...common,
          },
        },
      },
    },
  };
}
