import "server-only";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { DomainError } from "@/lib/platform/errors";
import { pageQuerySchema } from "@/lib/platform/list-query";
import { isoTimestamp } from "@/lib/platform/timestamps";
import type { ClaimedDelivery } from "./delivery-queue";
import { deliveryHeaders, type SendResult, type WebhookMessage } from "./send";
import type { Verification, VerificationCode } from "./signature-debugger";

/**
 * Inbox endpoints: deliveries captured inside the platform instead of sent over the network, so QA can watch
 * what is sent, whether it verifies, and how retries behave, with no server of their own. The worker hands an
 * inbox's delivery here in place of the HTTP send; everything else (claims, retries, the attempt log, the
 * disabled-endpoint rules) is the same code as for a URL.
 */

/** A captured body is kept up to this many bytes (events are far smaller; this bounds a hostile metadata). */
export const INBOX_BODY_CAP_BYTES = 256 * 1024;
/**
 * Deliveries per inbox per minute; past it the inbox answers 429 with Retry-After, as a busy receiver would.
 * A refused one is captured too, with its 429, so a retry's "attempt 2" never appears without its attempt 1.
 */
export const INBOX_CAPTURES_PER_MINUTE = 120;

/** Checks what the inbox received with the official library, as a receiver would on arrival. */
function verifyCapture(headers: Record<string, string>, body: string, secret: string): Verification {
  try {
    new Webhook(secret).verify(body, headers);
    return {
      valid: true,
      code: null,
      reason: "Verified with this endpoint's signing secret (standardwebhooks).",
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { valid: false, code: "bad_signature", reason: `standardwebhooks refused it: ${reason}` };
  }
}

type InboxAnswer = { limited: boolean; status: number | null; timeout: boolean };

/**
 * Captures one delivery attempt and answers it as the inbox is set to: 200, a chosen status or a timeout, for
 * the next `count` deliveries or until changed (a 429 past the minute's budget, which spends no count). One statement under the endpoint's row lock spends the count
 * and the minute's capture budget, so concurrent deliveries never fail more (or capture more) than chosen.
 */
export async function captureInboxDelivery(
  db: Executor,
  delivery: ClaimedDelivery,
  message: WebhookMessage,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const bytes = Buffer.from(message.body);
  const headers = deliveryHeaders(message, bytes.length);
  const truncated = bytes.length > INBOX_BODY_CAP_BYTES;
  const body = truncated ? bytes.subarray(0, INBOX_BODY_CAP_BYTES).toString("utf8") : message.body;
  const verification = verifyCapture(headers, message.body, message.secrets[0] ?? "");
  const [answer] = await selectRows<InboxAnswer>(
    db,
    sql`
      with endpoint as (
        select id, inbox_response_status as status, inbox_response_timeout as timeout,
               inbox_response_remaining as remaining, inbox_window_count as window_count,
               (inbox_window_started_at is null or inbox_window_started_at <= now() - interval '1 minute') as new_window,
               -- Read here, not inside the CASE below: Citus allows only immutable functions there.
               now() as now
        from webhook_endpoints
        where id = ${delivery.endpointId} and merchant_id = ${delivery.merchantId}
        for update
      ), answer as (
        select *, not new_window and window_count >= ${INBOX_CAPTURES_PER_MINUTE} as limited from endpoint
      ), spent as (
        update webhook_endpoints w
        set inbox_response_remaining = case when a.limited then a.remaining
                                            when a.remaining = 1 then null else a.remaining - 1 end,
            inbox_response_status = case when not a.limited and a.remaining = 1 then null else a.status end,
            inbox_response_timeout = case when not a.limited and a.remaining = 1 then false else a.timeout end,
            inbox_window_started_at = case when a.new_window then a.now else w.inbox_window_started_at end,
            inbox_window_count = case when a.new_window then 1
                                      when a.limited then a.window_count else a.window_count + 1 end
        from answer a where w.id = a.id and w.merchant_id = ${delivery.merchantId}
      ), captured as (
        insert into webhook_inbox_captures
          (merchant_id, endpoint_id, event_id, attempt, headers, body, body_truncated, response_status,
           verification_valid, verification_code, verification_reason)
        select ${delivery.merchantId}::bigint, a.id, ${delivery.eventId}::text, ${delivery.attemptCount + 1}::int,
               ${JSON.stringify(headers)}::json, ${body}::text, ${truncated}::boolean,
               case when a.limited then 429 when a.timeout then null else coalesce(a.status, 200) end,
               ${verification.valid}::boolean, ${verification.code}::text, ${verification.reason}::text
        from answer a
      )
      select limited, status, timeout from answer`,
  );
  const latencyMs = Math.round(performance.now() - started);
  const result = (status: number | null, error: string | null, retryAfterSeconds: number | null = null) => ({
    ok: error === null,
    status,
    latencyMs,
    error,
    excerpt: null,
    retryAfterSeconds,
  });
  // The endpoint was deleted between the claim and now: its deliveries go with it.
  if (!answer) return result(null, "The inbox no longer exists.");
  if (answer.limited)
    return result(
      429,
      `HTTP 429: the inbox captures at most ${INBOX_CAPTURES_PER_MINUTE} deliveries a minute.`,
      60,
    );
  if (answer.timeout)
    return {
      ...result(null, `Timed out after ${timeoutMs / 1000} s (the inbox is set to time out).`),
      latencyMs: timeoutMs,
    };
  const status = answer.status ?? 200;
  return result(status, status >= 200 && status < 300 ? null : `HTTP ${status}`);
}

export const inboxQuerySchema = pageQuerySchema;

export type InboxCapture = {
  id: number;
  event_id: string;
  attempt: number;
  headers: Record<string, string>;
  body: string;
  body_truncated: boolean;
  response_status: number | null;
  verification: Verification;
  received_at: string;
};

type CaptureRow = {
  id: number | string;
  event_id: string;
  attempt: number;
  headers: Record<string, string> | string;
  body: string;
  body_truncated: boolean;
  response_status: number | null;
  verification_valid: boolean;
  verification_code: VerificationCode | null;
  verification_reason: string;
  received_at: Date | string;
};

const captureColumns = sql`id, event_id, attempt, headers, body, body_truncated, response_status,
  verification_valid, verification_code, verification_reason, received_at`;

function captureResource(row: CaptureRow): InboxCapture {
  return {
    id: Number(row.id),
    event_id: row.event_id,
    attempt: row.attempt,
    headers:
      typeof row.headers === "string" ? (JSON.parse(row.headers) as Record<string, string>) : row.headers,
    body: row.body,
    body_truncated: row.body_truncated,
    response_status: row.response_status,
    verification: {
      valid: row.verification_valid,
      code: row.verification_code,
      reason: row.verification_reason,
    },
    received_at: isoTimestamp(row.received_at),
  };
}

/** One of the merchant's captures (the debugger starts from it), or undefined. */
export async function getInboxCapture(
  db: Executor,
  merchantId: number,
  captureId: number,
): Promise<(InboxCapture & { endpoint_id: number }) | undefined> {
  const [row] = await selectRows<CaptureRow & { endpoint_id: number | string }>(
    db,
    sql`select endpoint_id, ${captureColumns} from webhook_inbox_captures
        where id = ${captureId} and merchant_id = ${merchantId}`,
  );
  return row ? { ...captureResource(row), endpoint_id: Number(row.endpoint_id) } : undefined;
}

/** One page of an inbox's captures, newest first; a not-found error when the endpoint is not an inbox. */
export async function listInboxCaptures(
  db: Executor,
  merchantId: number,
  endpointId: number,
  query: z.infer<typeof inboxQuerySchema>,
): Promise<{ items: InboxCapture[]; total: number }> {
  const [endpoint] = await selectRows<{ kind: string }>(
    db,
    sql`select kind from webhook_endpoints where id = ${endpointId} and merchant_id = ${merchantId}`,
  );
  if (!endpoint) throw new DomainError("not_found", "Webhook endpoint not found.");
  if (endpoint.kind !== "inbox")
    throw new DomainError("not_found", "This endpoint is not an inbox: it sends to its URL.");
  const filter = sql`merchant_id = ${merchantId} and endpoint_id = ${endpointId}`;
  const [rows, [count]] = await Promise.all([
    selectRows<CaptureRow>(
      db,
      sql`select ${captureColumns}
          from webhook_inbox_captures where ${filter}
          order by id desc limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
    ),
    selectRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from webhook_inbox_captures where ${filter}`,
    ),
  ]);
  return {
    items: rows.map(captureResource),
    total: count?.total ?? 0,
  };
}
