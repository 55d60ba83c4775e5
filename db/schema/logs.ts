// The API request log the merchant's Logs page reads.
import { bigint, doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, rowId } from "./columns";

/**
 * Every API request a token made, for the merchant's Logs page: written off the request path in batches,
 * pruned after API_LOG_RETENTION_DAYS. Never the Authorization header; a response body only for 4xx/5xx.
 * Partitioned by day of created_at (migration 0022): retention drops whole days (history-partitions.ts).
 */
export const apiRequestLogs = pgTable(
  "api_request_logs",
  {
    id: rowId(),
    // No foreign key: checking one locks the merchant's row once per logged request, and the worker's
    // retention prune removes a deleted merchant's entries like everyone else's.
    merchantId: bigint("merchant_id", { mode: "number" }).notNull(),
    requestId: text("request_id").notNull(),
    tokenId: bigint("token_id", { mode: "number" }).notNull(),
    method: text("method").notNull(),
    /** Path and query, as sent (at most 2,048 characters). */
    path: text("path").notNull(),
    status: integer("status").notNull(),
    latencyMs: doublePrecision("latency_ms").notNull(),
    clientIp: text("client_ip").notNull(),
    idempotencyKey: text("idempotency_key"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id, t.createdAt] }),
    // Also how a request id is found: by the time it carries (lib/logs/queries.ts), with no index of its own.
    // Plain DESC (nulls first) so the Logs page's `order by created_at desc, id desc` reads it in order, newest
    // partition first, and stops at the page (with NULLS LAST every entry of the merchant was sorted).
    index("api_request_logs_merchant_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Time ranges over every merchant: rows arrive in time order, so BRIN (a few pages) does what a btree would.
    // Retention, its first reader, now drops partitions instead.
    index("api_request_logs_created_idx").using("brin", t.createdAt),
  ],
);
