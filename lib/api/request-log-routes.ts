import { readRequestLogs, requestLogApiQuerySchema, type RequestLogRow } from "@/lib/logs/queries";
import { parseInput } from "@/lib/platform/validation";
import { apiRoute } from "./api-route";
import { queryValue } from "./pagination";
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

/**
 * GET /api/request-logs (read scope): the merchant's API requests as the Logs page shows them; `after` reads
 * only what was logged since an entry, oldest first (what `payments logs tail` polls).
 */
export const listRequestLogsRoute = apiRoute(async ({ read, merchantId, url }) => {
  const query = parseInput(requestLogApiQuerySchema, {
    status: queryValue(url, "status"),
    after: queryValue(url, "after"),
    limit: queryValue(url, "limit"),
  });
  const rows = await read((db) => readRequestLogs(db, merchantId, query));
  return jsonResponse(200, { data: rows.map(toApiEntry) });
});
