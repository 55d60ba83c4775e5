import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { pageQuerySchema } from "@/lib/platform/list-query";
import { isoTimestamp, isoTimestampOrNull } from "@/lib/platform/timestamps";
import { messages } from "@/lib/platform/validation";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";

/**
 * The events API's read side: what a merchant reads when a webhook was missed. An event is exactly what was
 * delivered (`event`, `data`), with its id (the deliveries' `webhook-id`) and creation time.
 */
export const listEventsQuerySchema = pageQuerySchema.extend({
  type: z
    .string({ error: messages.in("type") })
    .optional()
    .refine((value) => value === undefined || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value), {
      error: messages.in("type"),
    })
    .meta({ type: "string", enum: [...WEBHOOK_EVENT_TYPES] }),
  payment_id: z
    .string({ error: messages.integer("payment_id") })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      if (!/^\d{1,15}$/.test(value)) {
        ctx.addIssue({ code: "custom", message: messages.integer("payment_id") });
        return z.NEVER;
      }
      return Number(value);
    })
    .meta({ type: "integer" }),
});
export type ListEventsQuery = z.infer<typeof listEventsQuerySchema>;

export type EventResource = { id: string; event: string; data: unknown; created_at: string };
export type EventDelivery = {
  endpoint_id: number;
  status: string;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
};

type EventRow = { id: string; type: string; data: unknown; created_at: Date | string };

function toResource(row: EventRow): EventResource {
  return {
    id: row.id,
    event: row.type,
    data: typeof row.data === "string" ? (JSON.parse(row.data) as unknown) : row.data,
    created_at: isoTimestamp(row.created_at),
  };
}

type EventPageRow = {
  id: string | null;
  type: string;
  data: unknown;
  created_at: Date | string;
  total: number | string;
};

/**
 * One page of a merchant's events, newest first, and the total, in one round trip. The total and the hour
 * the page starts in come from event_hourly_counts (a few thousand rows at most), so the events index is
 * entered at that hour and skips only within it: page 10,000 costs about what page 1 costs. One payment's
 * events are a handful and are simply counted.
 */
export async function listEvents(
  db: Executor,
  merchantId: number,
  query: ListEventsQuery,
): Promise<{ items: EventResource[]; total: number }> {
  const offset = (query.page - 1) * query.perPage;
  const ofType = query.type ? sql`and type = ${query.type}` : sql``;
  const rows = await selectRows<EventPageRow>(
    db,
    query.payment_id !== undefined
      ? sql`
        with matching as (
          select id, created_at from events
          where merchant_id = ${merchantId} and payment_id = ${query.payment_id} ${ofType})
        select e.id, e.type, e.data, e.created_at, (select count(*) from matching) as total
        from (select 1) one
        left join lateral (
          select id, created_at from matching
          order by created_at desc, id desc limit ${query.perPage} offset ${offset}
        ) page on true
        left join events e on e.merchant_id = ${merchantId} and e.id = page.id
        order by page.created_at desc, page.id desc`
      : sql`
        with hours as (
          select hour, sum(count) as count from event_hourly_counts
          where merchant_id = ${merchantId} ${ofType} group by hour
        ),
        start as (
          select hour, newer from (
            select hour, count, sum(count) over (order by hour desc) - count as newer from hours
          ) running
          where newer + count > ${offset}
          order by hour desc limit 1
        )
        select e.id, e.type, e.data, e.created_at, (select coalesce(sum(count), 0) from hours) as total
        from (select 1) one
        left join lateral (
          select id, created_at from events
          where merchant_id = ${merchantId} ${ofType}
            and created_at < (select hour from start) + interval '1 hour'
          order by created_at desc nulls last, id desc nulls last
          limit ${query.perPage} offset (select ${offset} - newer from start)
        ) page on true
        left join events e on e.merchant_id = ${merchantId} and e.id = page.id
        order by page.created_at desc nulls last, page.id desc nulls last`,
  );
  return {
    items: rows.filter((row): row is EventPageRow & { id: string } => row.id !== null).map(toResource),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** The well-formed event ids: anything else names no event, with no query. */
export const EVENT_ID = /^evt_[\w-]{1,64}$/;

/** One of the merchant's events with its deliveries; undefined when it has none with the id. */
export async function findEvent(
  db: Executor,
  merchantId: number,
  eventId: string,
): Promise<(EventResource & { deliveries: EventDelivery[] }) | undefined> {
  if (!EVENT_ID.test(eventId)) return undefined;
  const [row] = await selectRows<EventRow & { merchant_id: number | string }>(
    db,
    sql`select id, merchant_id, type, data, created_at from events where merchant_id = ${merchantId} and id = ${eventId}`,
  );
  if (!row) return undefined;
  const deliveries = await selectRows<{
    endpoint_id: number | string;
    status: string;
    attempt_count: number;
    last_attempt_at: Date | string | null;
    next_attempt_at: Date | string | null;
  }>(
    db,
    sql`select endpoint_id, status, attempt_count, last_attempt_at, next_attempt_at
        from webhook_deliveries where merchant_id = ${row.merchant_id} and event_id = ${eventId}
        order by endpoint_id`,
  );
  return {
    ...toResource(row),
    deliveries: deliveries.map((delivery) => ({
      endpoint_id: Number(delivery.endpoint_id),
      status: delivery.status,
      attempts: delivery.attempt_count,
      last_attempt_at: isoTimestampOrNull(delivery.last_attempt_at),
      // Only a delivery still to be tried has a next attempt.
      next_attempt_at: delivery.status === "pending" ? isoTimestampOrNull(delivery.next_attempt_at) : null,
    })),
  };
}
