import { DELIVERY_STATUSES, ENDPOINT_KINDS } from "@/db/enums";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import { ref } from "./openapi-parts";

// The OpenAPI components of events, webhook endpoints, their deliveries and inboxes: written as JSON schema,
// as they are shaped by the resource functions rather than by one zod schema.

const timestamp = { type: "string", format: "date-time", examples: ["2026-11-23T10:15:00.000Z"] };
const nullableTimestamp = { type: ["string", "null"], format: "date-time" };
export const eventType = { type: "string", enum: [...WEBHOOK_EVENT_TYPES] };
const kindSchema = { type: "string", enum: [...ENDPOINT_KINDS] };

export const webhookSchemas = {
  Event: {
    type: "object",
    properties: {
      id: { type: "string", examples: ["evt_2bN8x1k0Q9"] },
      event: eventType,
      data: {
        oneOf: [{ $ref: ref("Payment") }, { $ref: ref("DisabledWebhookEndpoint") }],
        description:
          "What was delivered: the payment for `payment.*`, the endpoint for `webhook_endpoint.disabled`.",
      },
      created_at: timestamp,
    },
    required: ["id", "event", "data", "created_at"],
  },
  EventWithDeliveries: {
    allOf: [
      { $ref: ref("Event") },
      {
        type: "object",
        properties: {
          deliveries: {
            type: "array",
            items: {
              type: "object",
              properties: {
                endpoint_id: { type: "integer" },
                status: { type: "string", enum: [...DELIVERY_STATUSES] },
                attempts: { type: "integer" },
                last_attempt_at: nullableTimestamp,
                next_attempt_at: nullableTimestamp,
              },
            },
          },
        },
      },
    ],
  },
  WebhookEndpoint: {
    type: "object",
    properties: {
      id: { type: "integer" },
      kind: kindSchema,
      url: {
        type: "string",
        format: "uri",
        examples: ["https://shop.example.com/webhooks"],
        description: "For an inbox, `inbox://…`: it names the inbox and is never dialled.",
      },
      description: { type: ["string", "null"] },
      event_types: { type: "array", items: eventType },
      enabled: { type: "boolean" },
      inbox_response: { $ref: ref("InboxResponse"), description: "Inboxes only." },
      created_at: timestamp,
      secret: {
        type: "string",
        description: "Only in the answers to create and rotate-secret.",
        examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
      },
    },
    required: ["id", "kind", "url", "description", "event_types", "enabled", "created_at"],
  },
  DisabledWebhookEndpoint: {
    type: "object",
    description: "An endpoint the platform disabled, as the webhook endpoints API shows it, and why.",
    properties: {
      id: { type: "integer" },
      kind: kindSchema,
      url: { type: "string", format: "uri" },
      description: { type: ["string", "null"] },
      event_types: { type: "array", items: eventType },
      enabled: { type: "boolean", const: false },
      inbox_response: { $ref: ref("InboxResponse"), description: "Inboxes only." },
      created_at: timestamp,
      disabled_reason: {
        type: "string",
        examples: ["The endpoint answered 410 Gone.", "Failing without a success for 5 days."],
      },
    },
    required: ["id", "kind", "url", "description", "event_types", "enabled", "created_at", "disabled_reason"],
  },
  WebhookEndpointInput: {
    type: "object",
    properties: {
      kind: {
        ...kindSchema,
        description: "POST only. `inbox` captures deliveries inside the platform and takes no url.",
      },
      url: {
        type: "string",
        maxLength: 2048,
        description: "https:// (http:// only outside production). Required for kind `url`.",
      },
      description: { type: "string", maxLength: 255 },
      event_types: {
        type: "array",
        items: eventType,
        minItems: 1,
        description: "Default: the three payment events; `webhook_endpoint.disabled` is opted into.",
      },
      enabled: { type: "boolean", description: "PATCH only." },
      inbox_response: {
        $ref: ref("InboxResponse"),
        description: "PATCH on an inbox only: fail on purpose.",
      },
    },
    examples: [
      { url: "https://shop.example.com/webhooks", event_types: ["payment.completed"] },
      { kind: "inbox", event_types: ["payment.pending", "payment.completed"] },
      { inbox_response: { status: 500, count: 1 } },
    ],
  },
  Delivery: {
    type: "object",
    properties: {
      id: { type: "integer" },
      event_id: { type: "string" },
      event: eventType,
      status: { type: "string", enum: [...DELIVERY_STATUSES] },
      attempts: { type: "integer" },
      last_attempt_at: nullableTimestamp,
      next_attempt_at: nullableTimestamp,
      created_at: timestamp,
    },
  },
};

export const inboxSchemas = {
  Verification: {
    type: "object",
    properties: {
      valid: { type: "boolean" },
      code: {
        type: ["string", "null"],
        enum: [
          "missing_header",
          "malformed_signature",
          "timestamp_out_of_tolerance",
          "body_mismatch",
          "previous_secret",
          "other_endpoint",
          "bad_signature",
          "timestamp_mismatch",
          null,
        ],
        description: "Why it does not verify; null when it does.",
      },
      reason: {
        type: "string",
        description:
          "What to fix, in words: seconds off, the first differing offset, when the secret was replaced.",
      },
    },
    required: ["valid", "code", "reason"],
  },
  InboxResponse: {
    type: ["object", "null"],
    description:
      "What an inbox answers its next deliveries: a `status` (200-599) or a `timeout`, for `count` deliveries or, with no count, until changed. null answers 200.",
    properties: {
      status: { type: "integer", minimum: 200, maximum: 599 },
      timeout: { type: "boolean", const: true },
      count: { type: ["integer", "null"], minimum: 1, maximum: 1000 },
    },
    examples: [{ status: 500, count: 1 }, { timeout: true }],
  },
  InboxCapture: {
    type: "object",
    description: "One delivery attempt as an inbox received it.",
    properties: {
      id: { type: "integer" },
      event_id: { type: "string", description: "The `webhook-id`: retries of one event share it." },
      attempt: { type: "integer", description: "1 for the first attempt, 2 for the first retry, …" },
      headers: {
        type: "object",
        additionalProperties: { type: "string" },
        description: "Lower-case header names to values, as sent.",
      },
      body: { type: "string", description: "The exact body sent (the first 256 KB)." },
      body_truncated: { type: "boolean" },
      response_status: {
        type: ["integer", "null"],
        description: "What the inbox answered; null when it was set to time out.",
      },
      verification: { $ref: ref("Verification") },
      received_at: { type: "string", format: "date-time" },
    },
    required: [
      "id",
      "event_id",
      "attempt",
      "headers",
      "body",
      "body_truncated",
      "response_status",
      "verification",
      "received_at",
    ],
  },
};
