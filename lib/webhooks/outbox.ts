import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import type { PaymentEventType, PaymentResource } from "@/lib/payments/schemas";
import { publicId } from "@/lib/platform/ids";

/** Woken workers pick up new deliveries without waiting for their next poll. */
export const DELIVERIES_CHANNEL = "webhook_deliveries";

/** Wakes the webhook workers now (they also poll): call inside the transaction that queued deliveries. */
export async function wakeWebhookWorkers(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
}

/**
 * The outbox statement: the event, one pending delivery per enabled endpoint subscribed to its type, and a
 * wake-up for workers, in one round trip. Exported so the benchmark's bare baseline runs the same SQL.
 */
export function paymentEventQuery(
  eventId: string,
  merchantId: number,
  type: PaymentEventType,
  payment: PaymentResource,
): SQL {
  return sql`
    with event as (
      insert into events (id, merchant_id, payment_id, type, data)
      values (${eventId}, ${merchantId}, ${payment.id}, ${type}, ${JSON.stringify(payment)}::json)
      returning id
    ),
    created as (
      insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
      select ${merchantId}::bigint, event.id, endpoint.id
      from event, webhook_endpoints endpoint
      where endpoint.merchant_id = ${merchantId} and endpoint.enabled and ${type} = any(endpoint.event_types)
      returning 1
    )
    select pg_notify(${DELIVERIES_CHANNEL}, '') from created limit 1`;
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
  await tx.execute(paymentEventQuery(eventId, merchantId, type, payment));
  return eventId;
}
