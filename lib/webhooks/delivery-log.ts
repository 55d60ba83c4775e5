import "server-only";
import { and, asc, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/db/enums";
import { events, webhookAttempts, webhookDeliveries } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { idParam, messages, parseInput } from "@/lib/platform/validation";
import { getWebhookEndpoint } from "./endpoints";
import { wakeWebhookWorkers } from "./outbox";
import { webhookBody } from "./send";

/** Deliveries per page of an endpoint's log. */
export const DELIVERY_LOG_PAGE_SIZE = 50;

/** The log's URL query: a status filter and a keyset cursor; a bad value is ignored. */
export const deliveryLogQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().catch(undefined),
  before: idParam.optional().catch(undefined),
});
export type DeliveryLogQuery = z.infer<typeof deliveryLogQuerySchema>;

export type DeliveryLogPage = {
  entries: DeliveryLogEntry[];
  /** The cursor of the next (older) page, or null on the last page. */
  olderBefore: number | null;
};

export type DeliveryLogEntry = {
  id: number;
  eventId: string;
  eventType: string;
  /** The payment the event is about; null for a test event sent from the dashboard. */
  paymentId: number | null;
  /** The body as sent and signed. */
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date;
  createdAt: Date;
  attempts: DeliveryAttempt[];
};

export type DeliveryAttempt = {
  id: number;
  deliveryId: number;
  attemptedAt: Date;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
};

/** Every attempt of the given deliveries, oldest first, in one query. */
export async function listDeliveryAttempts(
  db: Executor,
  merchantId: number,
  deliveryIds: number[],
): Promise<DeliveryAttempt[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select({
      id: webhookAttempts.id,
      deliveryId: webhookAttempts.deliveryId,
      attemptedAt: webhookAttempts.attemptedAt,
      responseStatus: webhookAttempts.responseStatus,
      latencyMs: webhookAttempts.latencyMs,
      error: webhookAttempts.error,
      responseExcerpt: webhookAttempts.responseExcerpt,
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.merchantId, merchantId), inArray(webhookAttempts.deliveryId, deliveryIds)))
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
}

/** An endpoint's deliveries, newest first, each with its attempts (two queries whatever the page size). */
export async function listEndpointDeliveries(
  db: Executor,
  merchantId: number,
  endpointId: number,
  query: DeliveryLogQuery = {},
): Promise<DeliveryLogPage> {
  const conditions = [
    eq(webhookDeliveries.merchantId, merchantId),
    eq(webhookDeliveries.endpointId, endpointId),
  ];
  if (query.status) conditions.push(eq(webhookDeliveries.status, query.status));
  if (query.before) conditions.push(lt(webhookDeliveries.id, query.before));
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: events.type,
      paymentId: events.paymentId,
      data: events.data,
      status: webhookDeliveries.status,
      attemptCount: webhookDeliveries.attemptCount,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_PAGE_SIZE + 1);
  // One row past the page tells whether an older page exists.
  const olderBefore =
    deliveries.length > DELIVERY_LOG_PAGE_SIZE ? deliveries[DELIVERY_LOG_PAGE_SIZE - 1]!.id : null;
  deliveries.splice(DELIVERY_LOG_PAGE_SIZE);
  if (deliveries.length === 0) return { entries: [], olderBefore };
  const attempts = await listDeliveryAttempts(
    db,
    merchantId,
    deliveries.map((delivery) => delivery.id),
  );
  const entries = deliveries.map(({ data, ...delivery }) => ({
    ...delivery,
    body: webhookBody(delivery.eventType, data),
    attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
  }));
  return { entries, olderBefore };
}

/** A delivery queued again: due now, with a fresh retry schedule. */
const REQUEUED = {
  status: "pending",
  attemptCount: 0,
  nextAttemptAt: sql`now()`,
  updatedAt: sql`now()`,
} as const;

/** Queues a delivery again now, with a fresh retry schedule; its earlier attempts stay in the log. */
export async function resendDelivery(db: Executor, merchantId: number, deliveryId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookDeliveries)
      .set(REQUEUED)
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.merchantId, merchantId),
          sql`${webhookDeliveries.status} <> 'pending'`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (rows.length === 0)
      throw new DomainError("conflict", "That delivery is already queued, or does not exist.");
    await wakeWebhookWorkers(tx);
  });
}

const recoverSchema = z.object({
  since: z.coerce
    .date({ error: messages.required("since") })
    .refine((date) => date.getTime() <= Date.now(), "The since field must be a time in the past."),
});

/** Queues again every failed delivery of an endpoint created since a time (after an outage is fixed). */
export async function recoverFailedDeliveries(
  db: Executor,
  merchantId: number,
  endpointId: number,
  input: unknown,
): Promise<number> {
  const { since } = parseInput(recoverSchema, input);
  await getWebhookEndpoint(db, merchantId, endpointId);
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookDeliveries)
      .set(REQUEUED)
      .where(
        and(
          eq(webhookDeliveries.merchantId, merchantId),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.status, "failed"),
          gte(webhookDeliveries.createdAt, since),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (rows.length > 0) await wakeWebhookWorkers(tx);
    return rows.length;
  });
}
