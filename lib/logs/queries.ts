import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { getEnv } from "@/lib/platform/env";
import { timeOfOrderedId } from "@/lib/platform/ids";
import { keysetCursorSchema, readKeysetPage, type KeysetPage } from "@/lib/platform/keyset-pages";
import { idParam, messages } from "@/lib/platform/validation";
import type { RequestLogEntry } from "./request-log";

/** The Logs page's filters, from its URL: a value that is not one of these is ignored, never an error page. */
export const requestLogFiltersSchema = z.object({
  status: z.enum(["2xx", "4xx", "5xx"]).optional().catch(undefined),
  method: z.enum(["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"]).optional().catch(undefined),
  /** A path prefix, such as `/api/payments`. */
  path: z
    .string()
    .trim()
    .max(200)
    .regex(/^\/[\x21-\x7e]*$/)
    .optional()
    .catch(undefined),
  token: idParam.optional().catch(undefined),
  request_id: z
    .string()
    .trim()
    .regex(/^req_[\w-]{1,64}$/)
    .optional()
    .catch(undefined),
  ...keysetCursorSchema.shape,
});
export type RequestLogFilters = z.infer<typeof requestLogFiltersSchema>;

/** An entry as written (lib/logs/request-log.ts), with its id and the key's name (null once deleted). */
export type RequestLogRow = Omit<RequestLogEntry, "merchantId" | "createdAtMs"> & {
  id: number;
  tokenName: string | null;
  createdAt: Date;
};

export const REQUEST_LOG_PAGE_SIZE = 50;

/**
 * A request id, looked up by the time it carries: an index range on (merchant, time) instead of an index
 * on request ids, which cost the log a quarter of its insert work. The range allows for entries that an
 * earlier version stamped at the end of the request (at most the API's 2 s deadline later); an id made
 * before ids carried the time (or by no one) has none that falls in the kept window, and is searched for
 * over the merchant's whole log.
 */
function requestIdCondition(requestId: string): SQL {
  const at = timeOfOrderedId(requestId);
  const keptFrom = Date.now() - (getEnv().API_LOG_RETENTION_DAYS + 1) * 86_400_000;
  if (at === null || at < keptFrom || at > Date.now() + 86_400_000) return sql`l.request_id = ${requestId}`;
  return sql`l.request_id = ${requestId}
    and l.created_at >= to_timestamp(${at}::float8 / 1000)
    and l.created_at < to_timestamp(${at + 3000}::float8 / 1000)`;
}

type RequestLogRecord = {
  id: number | string;
  request_id: string;
  token_id: number | string;
  token_name: string | null;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  client_ip: string;
  idempotency_key: string | null;
  response_body: string | null;
  created_at: Date | string;
};

const toRequestLogRow = (row: RequestLogRecord): RequestLogRow => ({
  id: Number(row.id),
  requestId: row.request_id,
  tokenId: Number(row.token_id),
  tokenName: row.token_name,
  method: row.method,
  path: row.path,
  status: row.status,
  latencyMs: Number(row.latency_ms),
  clientIp: row.client_ip,
  idempotencyKey: row.idempotency_key,
  responseBody: row.response_body,
  createdAt: new Date(row.created_at),
});

/** Log entries with their key's name, as the Logs page and the API show them. */
async function selectRequestLogs(
  db: Executor,
  where: SQL,
  order: SQL,
  limit: number,
): Promise<RequestLogRow[]> {
  const rows = await selectRows<RequestLogRecord>(
    db,
    sql`select l.id, l.request_id, l.token_id, t.name as token_name, l.method, l.path, l.status,
               l.latency_ms, l.client_ip, l.idempotency_key, l.response_body, l.created_at
        from api_request_logs l
        left join api_tokens t on t.id = l.token_id and t.merchant_id = l.merchant_id
        where ${where}
        order by ${order}
        limit ${limit}`,
  );
  return rows.map(toRequestLogRow);
}

/** Newest first, 50 a page, paged by id (lib/platform/keyset-pages.ts). */
export async function listRequestLogs(
  db: Executor,
  merchantId: number,
  filters: RequestLogFilters,
): Promise<KeysetPage<RequestLogRow>> {
  const conditions: SQL[] = [sql`l.merchant_id = ${merchantId}`];
  if (filters.status) {
    const floor = Number(filters.status[0]) * 100;
    conditions.push(sql`l.status >= ${floor} and l.status < ${floor + 100}`);
  }
  if (filters.method) conditions.push(sql`l.method = ${filters.method}`);
  // A prefix: LIKE's wildcards in the filter are literal.
  if (filters.path) conditions.push(sql`starts_with(l.path, ${filters.path})`);
  if (filters.token !== undefined) conditions.push(sql`l.token_id = ${filters.token}`);
  if (filters.request_id) conditions.push(requestIdCondition(filters.request_id));
  const where = sql.join(conditions, sql` and `);
  return readKeysetPage(
    filters,
    REQUEST_LOG_PAGE_SIZE,
    async ({ before, after, order, limit }) => {
      const range = [
        before === undefined ? sql`` : sql` and l.id < ${before}`,
        after === undefined ? sql`` : sql` and l.id > ${after}`,
      ];
      const direction = order === "asc" ? sql`asc` : sql`desc`;
      return selectRequestLogs(
        db,
        sql`${where}${range[0]}${range[1]}`,
        sql`l.created_at ${direction}, l.id ${direction}`,
        limit,
      );
    },
    async (cap, newerThan) => {
      const [row] = await selectRows<{ total: number | string; newer: number | string }>(
        db,
        sql`select count(*) as total, count(*) filter (where id > ${newerThan ?? Number.MAX_SAFE_INTEGER}) as newer
            from (select l.id from api_request_logs l where ${where}
                  order by l.created_at desc, l.id desc limit ${cap}) newest`,
      );
      return { total: Number(row!.total), newer: Number(row!.newer) };
    },
  );
}

/** `GET /api/request-logs`' query: refused in Laravel's words when malformed (the API is strict, the page lenient). */
export const requestLogApiQuerySchema = z.object({
  status: z.enum(["2xx", "4xx", "5xx"], { error: messages.in("status") }).optional(),
  after: z
    .string()
    .regex(/^(?:0|[1-9]\d{0,15})$/, { error: messages.integer("after") })
    .transform(Number)
    .optional()
    .meta({ type: "integer", description: "An entry id: only newer entries." }),
  limit: z.coerce
    .number({ error: messages.integer("limit") })
    .int({ error: messages.integer("limit") })
    .min(1, { error: messages.min("limit", 1) })
    .max(100, { error: messages.max("limit", 100) })
    .default(50),
});
export type RequestLogApiQuery = z.infer<typeof requestLogApiQuerySchema>;

/**
 * The newest entries (newest first), or with `after` the ones logged after that entry, oldest of them
 * first, so `payments logs tail` prints them in order and moves its cursor to the last. No count: a tail
 * polls this every few seconds.
 */
export async function readRequestLogs(
  db: Executor,
  merchantId: number,
  query: RequestLogApiQuery,
): Promise<RequestLogRow[]> {
  const status = query.status
    ? sql`and l.status >= ${Number(query.status[0]) * 100} and l.status < ${Number(query.status[0]) * 100 + 100}`
    : sql``;
  const newer = query.after === undefined ? sql`` : sql`and l.id > ${query.after}`;
  const direction = query.after === undefined ? sql`desc` : sql`asc`;
  return selectRequestLogs(
    db,
    sql`l.merchant_id = ${merchantId} ${status} ${newer}`,
    sql`l.id ${direction}`,
    query.limit,
  );
}

export type TokenUsage = { requests: number; lastStatus: number; lastAt: Date };

/** Each token's requests in the last 24 hours and its latest status, for the API keys page. */
export async function getTokenUsage(db: Executor, merchantId: number): Promise<Map<number, TokenUsage>> {
  const rows = await selectRows<{
    token_id: number | string;
    requests: number;
    last_status: number;
    last_at: Date | string;
  }>(
    db,
    sql`select token_id, count(*)::int as requests,
               (array_agg(status order by created_at desc))[1] as last_status, max(created_at) as last_at
        from api_request_logs
        where merchant_id = ${merchantId} and created_at > now() - interval '24 hours'
        group by token_id`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.token_id),
      { requests: row.requests, lastStatus: row.last_status, lastAt: new Date(row.last_at) },
    ]),
  );
}
