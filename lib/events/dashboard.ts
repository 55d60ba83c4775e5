import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { events } from "@/db/schema";
import { idParam } from "@/lib/platform/validation";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/webhooks/endpoint-schemas";
import { webhookBody } from "@/lib/webhooks/send";

/** Events per page on the dashboard's Events page. */
export const EVENTS_PAGE_SIZE = 25;

export type EventFilters = { type?: WebhookEventType; paymentId?: number; page: number };

/** The Events page's URL query; a crafted or unknown value is left out, as on every dashboard page. */
export function readEventFilters(query: Record<string, string | string[] | undefined>): EventFilters {
  const text = (name: string) => (typeof query[name] === "string" ? query[name] : undefined);
  const type = WEBHOOK_EVENT_TYPES.find((known) => known === text("type"));
  const paymentId = idParam.safeParse(text("payment_id"));
  const page = idParam.safeParse(text("page"));
  return {
    type,
    paymentId: paymentId.success ? paymentId.data : undefined,
    page: page.success && page.data >= 1 ? page.data : 1,
  };
}

/** The payment an event is about, from its body: a payment event's `id`, a refund's `payment_id`. */
export function paymentIdOf(type: string, data: unknown): number | null {
  if (data === null || typeof data !== "object") return null;
  const record = data as Record<string, unknown>;
  const id = type.startsWith("payment.") ? record.id : type.startsWith("refund.") ? record.payment_id : null;
  // A test event's sample payment has id 0: about no real payment.
  return typeof id === "number" && id > 0 ? id : null;
}

export type MerchantEvent = {
  id: string;
  type: string;
  createdAt: Date;
  paymentId: number | null;
  /** The body as delivered and signed. */
  body: string;
};

/** One of the merchant's events; undefined for another merchant's or none (the page's 404). */
export async function getMerchantEvent(
  db: Executor,
  merchantId: number,
  eventId: string,
): Promise<MerchantEvent | undefined> {
  if (!/^evt_[\w-]{1,64}$/.test(eventId)) return undefined;
  const [row] = await db
    .select({
      id: events.id,
      type: events.type,
      createdAt: events.createdAt,
      paymentId: events.paymentId,
      data: events.data,
    })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.merchantId, merchantId)))
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    type: row.type,
    createdAt: row.createdAt,
    paymentId: row.paymentId ?? null,
    body: webhookBody(row.type, row.data),
  };
}

/** How an event's deliveries stand, for its row on the Events page. */
export type DeliverySummary = { total: number; succeeded: number; failed: number; pending: number };

/** The deliveries of a page of events, counted by status (the page's own ids: an indexed read per event). */
export async function deliverySummaries(
  db: Executor,
  merchantId: number,
  eventIds: string[],
): Promise<Map<string, DeliverySummary>> {
  const summaries = new Map<string, DeliverySummary>();
  if (eventIds.length === 0) return summaries;
  const rows = await selectRows<{
    event_id: string;
    status: "succeeded" | "failed" | "pending";
    count: string;
  }>(
    db,
    sql`select event_id, status, count(*) as count from webhook_deliveries
        where merchant_id = ${merchantId} and event_id = any(string_to_array(${eventIds.join(",")}, ','))
        group by 1, 2`,
  );
  for (const row of rows) {
    const summary = summaries.get(row.event_id) ?? { total: 0, succeeded: 0, failed: 0, pending: 0 };
    summary[row.status] += Number(row.count);
    summary.total += Number(row.count);
    summaries.set(row.event_id, summary);
  }
  return summaries;
}
