import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";

export type EndpointHealth = {
  /** Attempts in the last 24 hours, and how many got a 2xx. */
  attempts: number;
  succeeded: number;
  /** The latest attempt's HTTP status, or its error when there was no answer. */
  lastResult: string | null;
  lastAttemptAt: Date | null;
};

/**
 * Each endpoint's last 24 hours, from its attempts (one query for all of a merchant's endpoints, on
 * `webhook_attempts_merchant_attempted_idx`). Endpoints with no attempt in the window are absent.
 */
export async function getEndpointHealth(
  db: Executor,
  merchantId: number,
): Promise<Map<number, EndpointHealth>> {
  const rows = await selectRows<{
    endpoint_id: number | string;
    attempts: number | string;
    succeeded: number | string;
    last_result: string | null;
    last_attempt_at: Date | string;
  }>(
    db,
    sql`select d.endpoint_id,
               count(*) as attempts,
               count(*) filter (where a.response_status between 200 and 299) as succeeded,
               (array_agg(coalesce(a.response_status::text, a.error) order by a.attempted_at desc, a.id desc))[1] as last_result,
               max(a.attempted_at) as last_attempt_at
        from webhook_attempts a
        join webhook_deliveries d on d.merchant_id = a.merchant_id and d.id = a.delivery_id
        where a.merchant_id = ${merchantId} and a.attempted_at > now() - interval '24 hours'
        group by d.endpoint_id`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.endpoint_id),
      {
        attempts: Number(row.attempts),
        succeeded: Number(row.succeeded),
        lastResult: row.last_result,
        lastAttemptAt: new Date(row.last_attempt_at),
      },
    ]),
  );
}
