import "server-only";
import { is, SQL, sql } from "drizzle-orm";
import type { Executor, Transaction } from "@/db/client";
import { eventHour } from "@/lib/events/hourly-counts";
import type { PaymentEventType, PaymentResource } from "@/lib/payments/schemas";
import { publicId } from "@/lib/platform/ids";
import { ENDPOINT_DISABLED_EVENT, type MoneyEventType, type WebhookEventType } from "./endpoint-schemas";

/** Woken workers pick up new deliveries without waiting for their next poll. */
export const DELIVERIES_CHANNEL = "webhook_deliveries";

/** Wakes the webhook workers now (they also poll): call inside the transaction that queued deliveries. */
export async function wakeWebhookWorkers(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
}

/**
 * The outbox statement: the event, its count in its hour (event_hourly_counts), one pending delivery per
 * recipient, and a wake-up for workers, in one round trip. Recipients are the merchant's enabled endpoints
 * subscribed to the type (but `exceptEndpointId`), or exactly `onlyEndpointId` for a test event.
 * `after` puts the event at the end of another statement: its CTEs run first, the event is inserted once per
 * row of `after.from` (none: no event), and the statement returns `after.returning` from that row.
 */
export function eventStatement(event: {
  id: string;
  merchantId: number;
  type: WebhookEventType;
  /** The event's data (json) and payment id, as values or as SQL over `after.from`'s row. */
  data: unknown;
  paymentId: number | SQL | null;
  exceptEndpointId?: number;
  onlyEndpointId?: number;
  after?: { ctes: SQL; from: SQL; returning: SQL };
}): SQL {
  const recipients =
    event.onlyEndpointId === undefined
      ? sql`endpoint.enabled and ${event.type} = any(endpoint.event_types)
            ${event.exceptEndpointId === undefined ? sql`` : sql`and endpoint.id <> ${event.exceptEndpointId}`}`
      : sql`endpoint.id = ${event.onlyEndpointId}`;
  const data = is(event.data, SQL) ? event.data : sql`${JSON.stringify(event.data)}::json`;
  const { after } = event;
  return sql`
    with ${after ? sql`${after.ctes},` : sql``}
    event as (
      insert into events (id, merchant_id, payment_id, type, data)
      select ${event.id}, ${event.merchantId}::bigint, ${event.paymentId}::bigint, ${event.type}, ${data}
      ${after ? sql`from ${after.from}` : sql``}
      returning id, created_at
    ),
    counted as (
      insert into event_hourly_counts as counts (merchant_id, type, hour, count)
      select ${event.merchantId}, ${event.type}, ${eventHour(sql`event.created_at`)}, 1 from event
      on conflict (merchant_id, type, hour) do update set count = counts.count + 1
    ),
    created as (
      insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
      select ${event.merchantId}::bigint, event.id, endpoint.id
      from event, webhook_endpoints endpoint
      where endpoint.merchant_id = ${event.merchantId} and ${recipients}
      returning 1
    )
    select ${after ? sql`${after.returning},` : sql``} (select pg_notify(${DELIVERIES_CHANNEL}, '') from created limit 1)
    ${after ? sql`from ${after.from}` : sql``}`;
}

/** Sends a sample event to one endpoint through the normal delivery path (the dashboard's test button). */
export async function recordTestEvent(
  tx: Executor,
  merchantId: number,
  endpointId: number,
  type: MoneyEventType,
  sample: unknown,
): Promise<string> {
  const eventId = publicId("evt");
  await tx.execute(
    eventStatement({
      id: eventId,
      merchantId,
      type,
      data: sample,
      paymentId: null,
      onlyEndpointId: endpointId,
    }),
  );
  return eventId;
}

/**
 * Records a payment event inside the caller's transaction, so the change, its event and its deliveries
 * commit (or vanish) together.
 */
export async function recordPaymentEvent(
  tx: Transaction,
  merchantId: number,
  type: PaymentEventType,
  payment: PaymentResource,
): Promise<string> {
  const eventId = publicId("evt");
  await tx.execute(eventStatement({ id: eventId, merchantId, type, data: payment, paymentId: payment.id }));
  return eventId;
}

/**
 * Tells a merchant's other endpoints that the platform disabled one, inside the transaction that disabled
 * it. `data` is the endpoint as the webhook endpoints API shows it.
 */
export async function recordEndpointDisabledEvent(
  tx: Executor,
  merchantId: number,
  endpoint: { id: number } & Record<string, unknown>,
): Promise<string> {
  const eventId = publicId("evt");
  await tx.execute(
    eventStatement({
      id: eventId,
      merchantId,
      type: ENDPOINT_DISABLED_EVENT,
      data: endpoint,
      paymentId: null,
      exceptEndpointId: endpoint.id,
    }),
  );
  return eventId;
}
