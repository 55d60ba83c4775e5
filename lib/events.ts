import "server-only";
import { sql } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { events } from "@/db/schema";
import { publicId } from "./ids";
import type { PaymentEventType, PaymentResource } from "./payment-schemas";

/** Woken workers pick up new deliveries without waiting for their next poll. */
export const DELIVERIES_CHANNEL = "webhook_deliveries";

/**
 * The outbox: records the event and one pending delivery per enabled endpoint subscribed to its type, inside
 * the caller's transaction, so the change, its event and its deliveries commit (or vanish) together.
 */
export async function recordPaymentEvent(
  tx: Transaction,
  merchantId: number,
  type: PaymentEventType,
  payment: PaymentResource,
): Promise<string> {
  const eventId = publicId("evt");
  await tx.insert(events).values({ id: eventId, merchantId, paymentId: payment.id, type, data: payment });
  await tx.execute(sql`
    with created as (
      insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
      select ${merchantId}, ${eventId}, id from webhook_endpoints
      where merchant_id = ${merchantId} and enabled and ${type} = any(event_types)
      returning 1
    )
    select pg_notify(${DELIVERIES_CHANNEL}, '') from created limit 1`);
  return eventId;
}
