import {
  bodyRefusals,
  common,
  errorResponse,
  idParameter,
  pagedResponse,
  pageParameters,
  validationErrorResponse,
} from "./openapi-parts";

// Inboxes and the signature debugger: QA without a server of their own.

const forbidden = (what: string) => errorResponse("unauthorized", `The ${what} belongs to another merchant.`);

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
      verification: { $ref: "#/components/schemas/Verification" },
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

export const inboxPaths = {
  "/api/webhook-endpoints/{id}/inbox": {
    parameters: [idParameter("The inbox endpoint's id.")],
    get: {
      summary: "List what an inbox endpoint captured, newest first (kept 7 days)",
      parameters: pageParameters,
      responses: {
        "200": pagedResponse("A page of captures.", "#/components/schemas/InboxCapture"),
        "403": forbidden("endpoint"),
        "404": errorResponse("notFound", "No such endpoint, or it is not an inbox."),
        "422": validationErrorResponse("Bad page or perPage."),
        ...common,
      },
    },
  },
  "/api/webhooks/verify": {
    post: {
      summary: "The signature debugger: does this delivery verify, and if not, why (read scope)",
      description:
        "Give the endpoint and the delivery as the receiver got it (`headers` an object of header names to values, `body` the exact string). The answer never includes a secret.",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: {
                endpoint_id: { type: "integer" },
                headers: { type: "object", additionalProperties: { type: "string" } },
                body: { type: "string" },
              },
              required: ["endpoint_id", "headers", "body"],
            },
          },
        },
      },
      responses: {
        "200": {
          description: "The verdict.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Verification" } } },
        },
        "403": forbidden("endpoint"),
        "404": errorResponse("notFound", "No such endpoint."),
        "422": validationErrorResponse("A missing or malformed endpoint_id, headers or body."),
        ...bodyRefusals,
        ...common,
      },
    },
  },
};
