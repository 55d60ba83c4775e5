import "server-only";
import { is, SQL, sql } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { publicId } from "@/lib/platform/ids";
import type { PaymentEventType, PaymentResource } from "./schemas";

// Every event is recorded through this statement (payments', refunds', webhooks' test and endpoint events). It is
// in payments/ because that folder is at the bottom: it imports no other domain, and any domain may import it.

/**
 * The hour an event is counted in (table event_hourly_counts): `date_bin` on an absolute origin, so the
 * bucket does not depend on the session's time zone the way `date_trunc` on a timestamptz does. The pruner
 * (lib/retention/pruning.ts) uncounts pruned events with the same expression.
 */
export const eventHour = (time: SQL): SQL =>
  sql`date_bin('1 hour', ${time}, timestamptz '2000-01-01 00:00:00+00')`;

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
 * `after.then` are CTEs that must run once the event is counted and delivered: they read `recorded` (one row),
 * which PostgreSQL can only give once those are done (a statement's CTEs otherwise run in no set order), so
 * the rows they lock are taken in the same order as a transaction of separate statements takes them.
 */
export function eventStatement(event: {
  id: string;
  merchantId: number;
  /** One of WEBHOOK_EVENT_TYPES (lib/webhooks/endpoint-schemas.ts, above this folder, which lists them). */
  type: string;
  /** The event's data (json) and payment id, as values or as SQL over `after.from`'s row. */
  data: unknown;
  paymentId: number | SQL | null;
  exceptEndpointId?: number;
  onlyEndpointId?: number;
  after?: { ctes: SQL; from: SQL; returning: SQL; then?: SQL };
}): SQL {
  const recipients =
    event.onlyEndpointId === undefined
      ? sql`endpoint.enabled and ${event.type} = any(endpoint.event_types)
            ${event.exceptEndpointId === undefined ? sql`` : sql`and endpoint.id <> ${event.exceptEndpointId}`}`
      : sql`endpoint.id = ${event.onlyEndpointId}`;
  const data = is(event.data, SQL) ? event.data : sql`${JSON.stringify(event.data)}::json`;
  const { after } = event;
  // On Citus the statement runs on the merchant's worker, where no webhook worker listens: they poll there.
  const wakeUp = onCitus()
    ? sql`null`
    : sql`(select pg_notify(${DELIVERIES_CHANNEL}, '') from created limit 1)`;
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
      ${after?.then ? sql`returning 1` : sql``}
    ),
    created as (
      insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
      select ${event.merchantId}::bigint, event.id, endpoint.id
      from event, webhook_endpoints endpoint
      where endpoint.merchant_id = ${event.merchantId} and ${recipients}
      returning 1
    )
    ${
      after?.then
        ? sql`, recorded as (select (select count(*) from counted) + (select count(*) from created) as rows),
              ${after.then}`
        : sql``
    }
    select ${after ? sql`${after.returning},` : sql``} ${wakeUp}
    ${after ? sql`from ${after.from}` : sql``}`;
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
 * Records one event in the caller's transaction, outside any other statement (payouts', disputes'): the same
 * outbox, signing and retries as payments'. `paymentId` puts it in that payment's timeline.
 */
export async function recordEvent(
  tx: Executor,
  event: { merchantId: number; type: string; data: unknown; paymentId: number | null },
): Promise<void> {
  await selectRows(tx, eventStatement({ id: publicId("evt"), ...event }));
}
