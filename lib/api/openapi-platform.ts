import { DELIVERY_STATUSES, ENDPOINT_KINDS } from "@/db/enums";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import {
  bodyRefusals,
  common,
  dataResponse,
  errorResponse,
  idParameter,
  message,
  pagedResponse,
  pageParameters,
  validationErrorResponse,
} from "./openapi-parts";

// The events and webhook endpoints APIs.

const ref = (name: string) => `#/components/schemas/${name}`;
const timestamp = { type: "string", format: "date-time", examples: ["2026-11-23T10:15:00.000Z"] };
const nullableTimestamp = { type: ["string", "null"], format: "date-time" };
const eventType = { type: "string", enum: [...WEBHOOK_EVENT_TYPES] };
const kindSchema = { type: "string", enum: [...ENDPOINT_KINDS] };

export const platformSchemas = {
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

const forbidden = (what: string) => errorResponse("unauthorized", `The ${what} belongs to another merchant.`);
const endpointRoute = {
  ...common,
  "403": forbidden("endpoint"),
  "404": errorResponse("notFound", "No such endpoint."),
};
const writeBody = {
  required: true,
  content: { "application/json": { schema: { $ref: ref("WebhookEndpointInput") } } },
};
const bodyErrors = {
  "400": errorResponse("malformedJson", "The body is not JSON, not a JSON object, or nested too deeply."),
  ...bodyRefusals,
  "422": validationErrorResponse("A field is invalid; `errors` names it. Nothing was written."),
};

export const platformPaths = {
  "/api/events": {
    get: {
      summary: "List events, newest first (read scope is enough)",
      description:
        "Kept 30 days. Read them to catch up after a missed webhook; `id` is the deliveries' webhook-id.",
      parameters: [
        ...pageParameters,
        { name: "type", in: "query", schema: eventType },
        { name: "payment_id", in: "query", schema: { type: "integer" } },
      ],
      responses: {
        "200": pagedResponse("A page of events.", ref("Event")),
        "422": validationErrorResponse("Bad page, perPage, type or payment_id."),
        ...common,
      },
    },
  },
  "/api/events/{id}": {
    get: {
      summary: "Retrieve an event and its deliveries",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "200": dataResponse("The event.", ref("EventWithDeliveries")),
        "403": forbidden("event"),
        "404": errorResponse("notFound", "No such event."),
        ...common,
      },
    },
  },
  "/api/webhook-endpoints": {
    get: {
      summary: "List webhook endpoints (write scope)",
      responses: {
        "200": {
          description: "Every endpoint, newest first; secrets are not included.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { data: { type: "array", items: { $ref: ref("WebhookEndpoint") } } },
              },
            },
          },
        },
        "403": errorResponse("unauthorized", "The token is read-only."),
        ...common,
      },
    },
    post: {
      summary: "Add a webhook endpoint; its signing secret is in this answer only",
      requestBody: writeBody,
      responses: {
        "201": dataResponse("Created, with `secret`.", ref("WebhookEndpoint"), {
          Location: { description: "/api/webhook-endpoints/{id}", schema: { type: "string" } },
        }),
        "403": errorResponse("unauthorized", "The token is read-only."),
        ...bodyErrors,
        ...common,
      },
    },
  },
  "/api/webhook-endpoints/{id}": {
    parameters: [idParameter("The endpoint's id.")],
    get: {
      summary: "Retrieve an endpoint",
      responses: { "200": dataResponse("The endpoint.", ref("WebhookEndpoint")), ...endpointRoute },
    },
    patch: {
      summary: "Change url, description, event_types, enabled, or an inbox's inbox_response",
      requestBody: writeBody,
      responses: {
        "200": dataResponse("The endpoint as changed.", ref("WebhookEndpoint")),
        ...bodyErrors,
        ...endpointRoute,
      },
    },
    delete: {
      summary: "Delete an endpoint and its delivery log",
      responses: { "204": { description: "Deleted." }, ...bodyRefusals, ...endpointRoute },
    },
  },
  "/api/webhook-endpoints/{id}/rotate-secret": {
    parameters: [idParameter("The endpoint's id.")],
    post: {
      summary: "Rotate the signing secret (the old one keeps signing beside it for 24 hours)",
      responses: {
        "200": dataResponse("The endpoint, with its new `secret`.", ref("WebhookEndpoint")),
        ...bodyRefusals,
        ...endpointRoute,
      },
    },
  },
  "/api/webhook-endpoints/{id}/deliveries": {
    parameters: [idParameter("The endpoint's id.")],
    get: {
      summary: "List an endpoint's deliveries, newest first",
      parameters: [
        ...pageParameters,
        { name: "status", in: "query", schema: { type: "string", enum: [...DELIVERY_STATUSES] } },
      ],
      responses: {
        "200": pagedResponse("A page of deliveries.", ref("Delivery")),
        "422": validationErrorResponse("Bad page, perPage or status."),
        ...endpointRoute,
      },
    },
  },
  "/api/webhook-deliveries/{id}/resend": {
    parameters: [idParameter("The delivery's id.")],
    post: {
      summary: "Queue a delivered or failed delivery again",
      responses: {
        "202": {
          description: "Queued.",
          content: { "application/json": { schema: message("Delivery queued again.") } },
        },
        "403": forbidden("delivery"),
        "404": errorResponse("notFound", "No such delivery."),
        ...bodyRefusals,
        "409": {
          description: "Already queued.",
          content: {
            "application/json": { schema: message("That delivery is already queued, or does not exist.") },
          },
        },
        ...common,
      },
    },
  },
};
