import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { DELIVERY_STATUSES } from "@/db/enums";
import { DomainError, validationError } from "@/lib/platform/errors";
import { pageQuerySchema } from "@/lib/platform/list-query";
import { isoTimestamp, isoTimestampOrNull } from "@/lib/platform/timestamps";
import { messages } from "@/lib/platform/validation";
import type { InboxAnswerColumns, WebhookEndpointSummary } from "./endpoints";

/**
 * What the webhook endpoints API adds to the dashboard's domain functions: the public resource shape, the
 * owner of a record (so another merchant's is a 403, a missing one a 404, as the contract rules), the API's
 * field names, and a paged deliveries list.
 */
export function endpointResource(
  endpoint: Pick<
    WebhookEndpointSummary,
    "id" | "kind" | "url" | "description" | "eventTypes" | "enabled" | "createdAt"
  > &
    Partial<InboxAnswerColumns>,
  secret?: string,
) {
  return {
    id: endpoint.id,
    kind: endpoint.kind,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    enabled: endpoint.enabled,
    ...(endpoint.kind === "inbox" ? { inbox_response: inboxResponseResource(endpoint) } : {}),
    created_at: endpoint.createdAt.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}

/** An inbox's chosen answer as PATCH takes it, or null while it answers 200. */
function inboxResponseResource(endpoint: Partial<InboxAnswerColumns>) {
  if (!endpoint.inboxResponseTimeout && endpoint.inboxResponseStatus == null) return null;
  return {
    ...(endpoint.inboxResponseTimeout ? { timeout: true } : { status: endpoint.inboxResponseStatus }),
    count: endpoint.inboxResponseRemaining ?? null,
  };
}

/**
 * The API's body for create and update: `event_types` is the dashboard's `events`, and `enabled` must be a
 * boolean. Errors name the API's fields.
 */
export function readEndpointBody(body: Record<string, unknown>): {
  input: Record<string, unknown>;
  enabled: boolean | undefined;
} {
  const { event_types, enabled, ...rest } = body;
  if (enabled !== undefined && typeof enabled !== "boolean")
    throw validationError({ enabled: ["The enabled field must be true or false."] });
  return { input: { ...rest, ...(event_types === undefined ? {} : { events: event_types }) }, enabled };
}

/** A validation error from the domain, with `events` named `event_types` as the API calls it. */
export function withApiFieldNames(error: unknown): unknown {
  if (!(error instanceof DomainError) || !error.fieldErrors?.events) return error;
  const { events, ...others } = error.fieldErrors;
  return new DomainError(error.kind, error.message, {
    ...others,
    event_types: events.map((message) =>
      message === messages.in("events") ? messages.in("event_types") : message,
    ),
  });
}

export const endpointDeliveriesQuerySchema = pageQuerySchema.extend({
  status: z.enum(DELIVERY_STATUSES, { error: messages.in("status") }).optional(),
});

export type DeliveryResource = {
  id: number;
  event_id: string;
  event: string;
  status: string;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
};

/** One page of an endpoint's deliveries, newest first. */
export async function listDeliveriesPage(
  db: Executor,
  merchantId: number,
  endpointId: number,
  query: z.infer<typeof endpointDeliveriesQuerySchema>,
): Promise<{ items: DeliveryResource[]; total: number }> {
  const filters = sql`d.merchant_id = ${merchantId} and d.endpoint_id = ${endpointId}${
    query.status ? sql` and d.status = ${query.status}` : sql``
  }`;
  const [rows, [count]] = await Promise.all([
    selectRows<{
      id: number | string;
      event_id: string;
      type: string;
      status: string;
      attempt_count: number;
      last_attempt_at: Date | string | null;
      next_attempt_at: Date | string;
      created_at: Date | string;
    }>(
      db,
      sql`select d.id, d.event_id, e.type, d.status, d.attempt_count, d.last_attempt_at, d.next_attempt_at,
                 d.created_at
          from webhook_deliveries d join events e on e.id = d.event_id and e.merchant_id = d.merchant_id
          where ${filters}
          order by d.id desc limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
    ),
    selectRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from webhook_deliveries d where ${filters}`,
    ),
  ]);
  return {
    items: rows.map((row) => ({
      id: Number(row.id),
      event_id: row.event_id,
      event: row.type,
      status: row.status,
      attempts: row.attempt_count,
      last_attempt_at: isoTimestampOrNull(row.last_attempt_at),
      next_attempt_at: row.status === "pending" ? isoTimestampOrNull(row.next_attempt_at) : null,
      created_at: isoTimestamp(row.created_at),
    })),
    total: count?.total ?? 0,
  };
}
