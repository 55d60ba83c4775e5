import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { DeliveryStatus } from "@/db/enums";
import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { listDeliveryAttempts, type DeliveryAttempt } from "@/lib/webhooks/delivery-log";
import { webhookBody } from "@/lib/webhooks/send";

export type EventDeliveryDetail = {
  id: number;
  eventId: string;
  endpointId: number;
  endpointUrl: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
};

export type TimelineEvent = {
  id: string;
  type: string;
  createdAt: Date;
  /** The body as delivered and signed. */
  body: string;
  deliveries: EventDeliveryDetail[];
};

/** The deliveries of the merchant's given events, each with its endpoint's URL and its attempts (two queries). */
export async function listEventDeliveries(
  db: Executor,
  merchantId: number,
  eventIds: string[],
): Promise<EventDeliveryDetail[]> {
  if (eventIds.length === 0) return [];
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      endpointId: webhookDeliveries.endpointId,
      status: webhookDeliveries.status,
      endpointUrl: webhookEndpoints.url,
    })
    .from(webhookDeliveries)
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.merchantId, webhookDeliveries.merchantId),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
      ),
    )
    .where(and(eq(webhookDeliveries.merchantId, merchantId), inArray(webhookDeliveries.eventId, eventIds)))
    .orderBy(asc(webhookDeliveries.id));
  const attempts = await listDeliveryAttempts(
    db,
    merchantId,
    deliveries.map((delivery) => delivery.id),
  );
  return deliveries.map((delivery) => ({
    ...delivery,
    attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
  }));
}

/** A payment's events (its refunds' too), oldest first, each with its deliveries and their attempts. */
export async function getPaymentTimeline(
  db: Executor,
  merchantId: number,
  paymentId: number,
): Promise<TimelineEvent[]> {
  const eventRows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: events.data })
    .from(events)
    .where(and(eq(events.merchantId, merchantId), eq(events.paymentId, paymentId)))
    .orderBy(asc(events.createdAt));
  const deliveries = await listEventDeliveries(
    db,
    merchantId,
    eventRows.map((event) => event.id),
  );
  return eventRows.map(({ data, ...event }) => ({
    ...event,
    body: webhookBody(event.type, data),
    deliveries: deliveries.filter((delivery) => delivery.eventId === event.id),
  }));
}
