import "server-only";
import { and, asc, desc, eq, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/db/enums";
import { events, webhookAttempts, webhookDeliveries } from "@/db/schema";
import { wakeWebhookWorkers } from "@/lib/payments/outbox";
import { DomainError } from "@/lib/platform/errors";
import { keysetCursorSchema, readKeysetPage, type KeysetPage } from "@/lib/platform/keyset-pages";
import { messages, parseInput } from "@/lib/platform/validation";
import { getWebhookEndpoint } from "./endpoints";
import { webhookBody } from "./send";

/** Deliveries per page of an endpoint's log. */
export const DELIVERY_LOG_PAGE_SIZE = 50;

/** The log's URL query: a status filter and a keyset cursor; a bad value is ignored. */
export const deliveryLogQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().catch(undefined),
  ...keysetCursorSchema.shape,
});
export type DeliveryLogQuery = z.infer<typeof deliveryLogQuerySchema>;

export type DeliveryLogPage = KeysetPage<DeliveryLogEntry>;

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

/** An endpoint's deliveries, newest first, each with its attempts (three queries whatever the page size). */
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
  const page = await readKeysetPage(
    query,
    DELIVERY_LOG_PAGE_SIZE,
    ({ before, after, order, limit }) =>
      db
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
        .innerJoin(
          events,
          and(eq(events.merchantId, webhookDeliveries.merchantId), eq(events.id, webhookDeliveries.eventId)),
        )
        .where(
          and(
            ...conditions,
            before === undefined ? undefined : lt(webhookDeliveries.id, before),
            after === undefined ? undefined : gt(webhookDeliveries.id, after),
          ),
        )
        .orderBy(order === "asc" ? asc(webhookDeliveries.id) : desc(webhookDeliveries.id))
        .limit(limit),
    async (cap, newerThan) => {
      const newest = db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(...conditions))
        .orderBy(desc(webhookDeliveries.id))
        .limit(cap)
        .as("newest");
      const [counted] = await db
        .select({
          total: sql<number>`count(*)::int`,
          newer: sql<number>`(count(*) filter (where ${newest.id} > ${newerThan ?? Number.MAX_SAFE_INTEGER}))::int`,
        })
        .from(newest);
      return counted!;
    },
  );
  if (page.rows.length === 0) return { ...page, rows: [] };
  const attempts = await listDeliveryAttempts(
    db,
    merchantId,
    page.rows.map((delivery) => delivery.id),
  );
  const rows = page.rows.map(({ data, ...delivery }) => ({
    ...delivery,
    body: webhookBody(delivery.eventType, data),
    attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
  }));
  return { ...page, rows };
}

/** A delivery queued again: due now, with a fresh retry schedule. */
const REQUEUED = {
  status: "pending",
  attemptCount: 0,
  nextAttemptAt: sql`now()`,
  updatedAt: sql`now()`,
} as const;

/**
 * Queues the merchant's finished deliveries matching `which` again now, with a fresh retry schedule (their
 * earlier attempts stay in the log), and wakes the workers; how many. A conflict with `refusal` when none.
 */
async function requeueDeliveries(
  db: Executor,
  merchantId: number,
  which: SQL,
  refusal: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookDeliveries)
      .set(REQUEUED)
      .where(
        and(
          eq(webhookDeliveries.merchantId, merchantId),
          which,
          sql`${webhookDeliveries.status} <> 'pending'`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (rows.length === 0) throw new DomainError("conflict", refusal);
    await wakeWebhookWorkers(tx);
    return rows.length;
  });
}

/** Queues a delivery again now (Resend). */
export async function resendDelivery(db: Executor, merchantId: number, deliveryId: number): Promise<void> {
  await requeueDeliveries(
    db,
    merchantId,
    eq(webhookDeliveries.id, deliveryId),
    "That delivery is already queued, or does not exist.",
  );
}

/**
 * "Retry now": a delivery waiting for its next scheduled retry is made due at once, keeping its attempt count
 * (so the schedule goes on from where it was). Refused when no retry is waiting. A delivery a worker holds
 * right now also has a future next_attempt_at (its lease); moving that one may send it once more, which
 * at-least-once delivery allows (receivers dedupe by webhook-id).
 */
export async function retryDeliveryNow(db: Executor, merchantId: number, deliveryId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(webhookDeliveries.merchantId, merchantId),
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.status, "pending"),
          gt(webhookDeliveries.attemptCount, 0),
          sql`${webhookDeliveries.nextAttemptAt} > now()`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (rows.length === 0)
      throw new DomainError(
        "conflict",
        "That delivery has no retry waiting: it was delivered, or failed for good.",
      );
    await wakeWebhookWorkers(tx);
  });
}

/** Queues again every finished delivery of one of the merchant's events (`payments events resend`). */
export function resendEvent(db: Executor, merchantId: number, eventId: string): Promise<number> {
  return requeueDeliveries(
    db,
    merchantId,
    eq(webhookDeliveries.eventId, eventId),
    `Event ${eventId} has nothing to resend: its deliveries are still queued, or no endpoint was subscribed to its type when it happened.`,
  );
}

/** "2026-11-25 14:30" (a "T" for the space is taken too), read as UTC: the dashboard shows times that way. */
const UTC_MINUTE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/;

const recoverSchema = z.object({
  since: z
    .string({ error: messages.required("since") })
    .trim()
    .min(1, messages.required("since"))
    .transform((value, context) => {
      const [, day, time] = UTC_MINUTE.exec(value) ?? [];
      const date = new Date(`${day}T${time}:00Z`);
      // The round trip refuses what Date would roll over (2026-02-30, 24:00).
      if (!day || Number.isNaN(date.getTime()) || !date.toISOString().startsWith(`${day}T${time}`)) {
        context.addIssue({
          code: "custom",
          message: "Enter the since time as YYYY-MM-DD HH:MM in UTC, such as 2026-11-25 09:30.",
        });
        return z.NEVER;
      }
      return date;
    })
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
