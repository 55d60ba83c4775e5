import { readRequestLogs, requestLogApiQuerySchema, type RequestLogRow } from "@/lib/logs/queries";
import { defineRoute } from "./define-route";
import { ref, validationErrorResponse } from "./openapi-parts";
import { jsonResponse } from "./responses";

/** An entry as the API shows it: never the token, only its id and name. */
function toApiEntry(row: RequestLogRow) {
  return {
    id: row.id,
    request_id: row.requestId,
    token_id: row.tokenId,
    token_name: row.tokenName,
    method: row.method,
    path: row.path,
    status: row.status,
    latency_ms: row.latencyMs,
    client_ip: row.clientIp,
    idempotency_key: row.idempotencyKey,
    response_body: row.responseBody,
    created_at: row.createdAt.toISOString(),
  };
}

/** An entry in the OpenAPI document: what toApiEntry gives. */
export const requestLogEntrySchema = {
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
};

/**
 * GET /api/request-logs (read scope): the merchant's API requests as the Logs page shows them; `after` reads
 * only what was logged since an entry, oldest first (what `payments logs tail` polls).
 */
export const listRequestLogsRoute = defineRoute({
  method: "GET",
  path: "/api/request-logs",
  scope: "read",
  summary: "Your API requests, as the Logs page shows them (read scope)",
  description:
    "Newest first; with `after`, only the entries logged after that one, oldest first (what `payments logs tail` polls). Entries appear within a second or two of their request. Never the token: its id and name.",
  query: requestLogApiQuerySchema,
  responses: {
    200: {
      description: "Entries.",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { data: { type: "array", items: { $ref: ref("RequestLogEntry") } } },
            required: ["data"],
          },
        },
      },
    },
    422: validationErrorResponse("A bad status, after or limit."),
  },
  handler: async ({ read, merchantId, query }) => {
    const rows = await read((db) => readRequestLogs(db, merchantId, query));
    return jsonResponse(200, { data: rows.map(toApiEntry) });
  },
});
