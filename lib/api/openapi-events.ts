import { bodyRefusals, common, errorResponse, message, validationErrorResponse } from "./openapi-parts";

// The developer tools: the event stream (`payments listen`), resending an event (`payments events resend`),
// the request log (`payments logs tail`) and the signature debugger.

const forbidden = (what: string) => errorResponse("unauthorized", `The ${what} belongs to another merchant.`);

export const eventStreamPaths = {
  "/api/events/stream": {
    get: {
      summary: "Stream events live, as Server-Sent Events (read scope is enough)",
      description:
        "`text/event-stream`: each message has `id:` the event id, `event:` its type and `data:` the exact webhook body, one line of JSON. With `Last-Event-ID` (or `after`), every retained event after that one is sent first, in order, then new ones as they happen, on whichever server process committed them (within about 0.1 s). A `: heartbeat` comment comes every 15 s. Opening counts once against the rate limit; a token holds at most EVENT_STREAMS_PER_TOKEN streams (5 by default) at once.",
      parameters: [
        {
          name: "types",
          in: "query",
          description: "Comma-separated event types to receive; all of them when left out.",
          schema: { type: "string", examples: ["payment.completed,refund.succeeded"] },
        },
        {
          name: "after",
          in: "query",
          description: "Replay from after this event id (as the Last-Event-ID header does; the header wins).",
          schema: { type: "string" },
        },
        {
          name: "Last-Event-ID",
          in: "header",
          description: "The id of the last event received: replay what came after it.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "The stream; it stays open until the client closes it or the server stops.",
          content: { "text/event-stream": { schema: { type: "string" } } },
        },
        "410": {
          description: "The Last-Event-ID is not one of the merchant's retained events (unknown or pruned).",
          content: {
            "application/json": {
              schema: message("The last event id evt_… is not one of your retained events …"),
            },
          },
        },
        "422": validationErrorResponse("A bad types list or event id."),
        ...common,
      },
    },
  },
  "/api/events/{id}/resend": {
    post: {
      summary: "Send an event again to every endpoint it went to (write scope)",
      description:
        "Each of the event's finished deliveries (succeeded or failed) is queued again now, with a fresh retry schedule; its earlier attempts stay in the log. `payments events resend` calls it.",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "202": {
          description: "Queued again.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  message: { type: "string", examples: ["Event queued again for 2 endpoints."] },
                  data: {
                    type: "object",
                    properties: { id: { type: "string" }, deliveries_queued: { type: "integer" } },
                    required: ["id", "deliveries_queued"],
                  },
                },
                required: ["message", "data"],
              },
            },
          },
        },
        "403": forbidden("event"),
        "404": errorResponse("notFound", "No such event."),
        "409": {
          description: "Nothing to resend: its deliveries are still queued, or it had none.",
          content: { "application/json": { schema: message("Event evt_… has nothing to resend: …") } },
        },
        ...bodyRefusals,
        ...common,
      },
    },
  },
  "/api/request-logs": {
    get: {
      summary: "Your API requests, as the Logs page shows them (read scope)",
      description:
        "Newest first; with `after`, only the entries logged after that one, oldest first (what `payments logs tail` polls). Entries appear within a second or two of their request. Never the token: its id and name.",
      parameters: [
        { name: "status", in: "query", schema: { type: "string", enum: ["2xx", "4xx", "5xx"] } },
        {
          name: "after",
          in: "query",
          description: "An entry id: only newer entries.",
          schema: { type: "integer" },
        },
        { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 50 } },
      ],
      responses: {
        "200": {
          description: "Entries.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  data: { type: "array", items: { $ref: "#/components/schemas/RequestLogEntry" } },
                },
                required: ["data"],
              },
            },
          },
        },
        "422": validationErrorResponse("A bad status, after or limit."),
        ...common,
      },
    },
  },
};

export const requestLogSchemas = {
  RequestLogEntry: {
    type: "object",
    properties: {
      id: { type: "integer" },
      request_id: { type: "string", examples: ["req_0mwwo4ggbU5Xm5793iluZo"] },
      token_id: { type: "integer" },
      token_name: { type: ["string", "null"] },
      method: { type: "string" },
      path: { type: "string" },
      status: { type: "integer" },
      latency_ms: { type: "number" },
      client_ip: { type: "string" },
      idempotency_key: { type: ["string", "null"] },
      response_body: { type: ["string", "null"], description: "Kept for error answers." },
      created_at: { type: "string", format: "date-time" },
    },
    required: [
      "id",
      "request_id",
      "token_id",
      "token_name",
      "method",
      "path",
      "status",
      "latency_ms",
      "client_ip",
      "idempotency_key",
      "response_body",
      "created_at",
    ],
  },
};
