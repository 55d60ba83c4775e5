import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { listPaymentsQuerySchema, PAYMENT_EVENT_TYPES } from "@/lib/payments/schemas";
import { messages } from "@/lib/platform/validation";

/**
 * The events API's read side: what a merchant reads when a webhook was missed. An event is exactly what was
 * delivered (`event`, `data`), with its id (the deliveries' `webhook-id`) and creation time.
 */
export const listEventsQuerySchema = listPaymentsQuerySchema.extend({
  type: z
    .string()
    .optional()
    .refine((value) => value === undefined || (PAYMENT_EVENT_TYPES as readonly string[]).includes(value), {
      error: messages.in("type"),
    }),
  payment_id: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      if (!/^\d{1,15}$/.test(value)) {
        ctx.addIssue({ code: "custom", message: messages.integer("payment_id") });
        return z.NEVER;
      }
      return Number(value);
    }),
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

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toResource(row: EventRow): EventResource {
  return {
    id: row.id,
    event: row.type,
    data: typeof row.data === "string" ? (JSON.parse(row.data) as unknown) : row.data,
    created_at: iso(row.created_at)!,
  };
}

/**
 * One page of a merchant's events, newest first. The page's ids come from the index alone (merchant, time,
 * id), so a deep page reads no event bodies it skips.
 */
export async function listEvents(
  db: Executor,
  merchantId: number,
  query: ListEventsQuery,
): Promise<{ items: EventResource[]; total: number }> {
  const filters = sql.join(
    [
      sql`merchant_id = ${merchantId}`,
      ...(query.type ? [sql`type = ${query.type}`] : []),
      ...(query.payment_id !== undefined ? [sql`payment_id = ${query.payment_id}`] : []),
    ],
    sql` and `,
  );
  const [rows, [count]] = await Promise.all([
    selectRows<EventRow>(
      db,
      sql`select e.id, e.type, e.data, e.created_at
          from (select id, created_at from events where ${filters}
                order by created_at desc nulls last, id desc nulls last
                limit ${query.perPage} offset ${(query.page - 1) * query.perPage}) page
          join events e on e.id = page.id
          order by page.created_at desc nulls last, page.id desc nulls last`,
    ),
    selectRows<{ total: number }>(db, sql`select count(*)::int as total from events where ${filters}`),
  ]);
  return { items: rows.map(toResource), total: count?.total ?? 0 };
}

/** An event with its deliveries, and the merchant that owns it (the caller answers 403 for another's). */
export async function findEvent(
  db: Executor,
  eventId: string,
): Promise<{ merchantId: number; event: EventResource & { deliveries: EventDelivery[] } } | undefined> {
  if (!/^evt_[\w-]{1,64}$/.test(eventId)) return undefined;
  const [row] = await selectRows<EventRow & { merchant_id: number | string }>(
    db,
    sql`select id, merchant_id, type, data, created_at from events where id = ${eventId}`,
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
        from webhook_deliveries where event_id = ${eventId} order by endpoint_id`,
  );
  return {
    merchantId: Number(row.merchant_id),
    event: {
      ...toResource(row),
      deliveries: deliveries.map((delivery) => ({
        endpoint_id: Number(delivery.endpoint_id),
        status: delivery.status,
        attempts: delivery.attempt_count,
        last_attempt_at: iso(delivery.last_attempt_at),
        // Only a delivery still to be tried has a next attempt.
        next_attempt_at: delivery.status === "pending" ? iso(delivery.next_attempt_at) : null,
      })),
    },
  };
}
