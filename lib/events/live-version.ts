import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";

/**
 * What a dashboard page that updates itself watches: `events` (the Events list), `payment:<id>` (a payment's
 * page), `endpoint:<id>` (a webhook endpoint's deliveries and inbox).
 */
export type LiveScope =
  { kind: "events" } | { kind: "payment"; id: number } | { kind: "endpoint"; id: number };

export function parseLiveScope(text: string | null): LiveScope | null {
  if (text === "events") return { kind: "events" };
  const match = /^(payment|endpoint):([1-9][0-9]{0,17})$/.exec(text ?? "");
  return match ? { kind: match[1] as "payment" | "endpoint", id: Number(match[2]) } : null;
}

/** Deliveries still being tried: read through the partial index of pending ones, a short list. */
function pending(merchantId: number, narrower: SQL): SQL {
  return sql`(select count(*) || '.' || coalesce(sum(attempt_count), 0) from webhook_deliveries
              where status = 'pending' and merchant_id = ${merchantId} ${narrower})`;
}

/**
 * A short text that changes whenever what the page shows does: a new event, delivery or capture, an attempt
 * on a pending delivery, a delivery settling, a payment's or refund's transition. The page polls it (one
 * indexed statement) and renders again only when it changed, instead of every few seconds. Scoped to the
 * merchant: another merchant's id gives the same text as a missing one.
 */
export async function liveVersion(db: Executor, merchantId: number, scope: LiveScope): Promise<string> {
  let version: SQL;
  if (scope.kind === "events")
    version = sql`coalesce((select id from events where merchant_id = ${merchantId}
                            order by created_at desc, id desc limit 1), '')
                  || ':' || ${pending(merchantId, sql``)}`;
  else if (scope.kind === "payment")
    version = sql`coalesce((select status || ':' || amount_refunded || ':' || amount_refund_pending from payments
                            where merchant_id = ${merchantId} and id = ${scope.id}), '')
                  || ':' || (select count(*) from events where merchant_id = ${merchantId} and payment_id = ${scope.id})
                  || ':' || ${pending(merchantId, sql`and event_id in (select id from events where merchant_id = ${merchantId} and payment_id = ${scope.id})`)}`;
  else
    version = sql`coalesce((select id::text from webhook_deliveries where merchant_id = ${merchantId}
                              and endpoint_id = ${scope.id} order by created_at desc limit 1), '')
                  || ':' || coalesce((select id::text from webhook_inbox_captures where merchant_id = ${merchantId}
                              and endpoint_id = ${scope.id} order by id desc limit 1), '')
                  || ':' || ${pending(merchantId, sql`and endpoint_id = ${scope.id}`)}`;
  const [row] = await selectRows<{ version: string }>(db, sql`select ${version} as version`);
  return row?.version ?? "";
}
