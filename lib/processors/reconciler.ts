import "server-only";
import { sql } from "drizzle-orm";
import { getDb, selectRows, type Executor } from "@/db/client";
import type { BackgroundService } from "@/lib/platform/background-service";
import { getEnv } from "@/lib/platform/env";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/logger";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { periodicService } from "@/lib/platform/periodic-service";
import { readProcessorConnection, type ProcessorConnection } from "./connections";
import { syncProcessorPayment } from "./payments";
import { syncProcessorRefund } from "./refunds";

// A webhook that never came (DESIGN.md, "Processors"): a processor's payment or refund still pending
// PROCESSOR_RECONCILE_AFTER after it was made, or after it was last asked about, is asked about again; a refund
// the processor could not take when it was made is sent again.

const BATCH_SIZE = 100;

/**
 * Claims a batch of a table's processor rows due a question (stamping `processor_checked_at` in the claim, so
 * another worker takes others, and one is asked again only a period later), then brings each up to date with
 * its environment's processor. A processor that cannot be asked now is asked next period. Returns how many
 * were claimed.
 */
function reconcile(
  db: Executor,
  table: "payments" | "refunds",
  afterMs: number,
  limit: number,
  sync: (merchantId: number, connection: ProcessorConnection, id: string) => Promise<unknown>,
): Promise<number> {
  const age = sql`now() - ${afterMs}::bigint * interval '1 millisecond'`;
  const isDue = sql`status = 'pending' and processor <> 'simulator' and created_at <= ${age}
                    and (processor_checked_at is null or processor_checked_at <= ${age})`;
  const name = sql.identifier(table);
  // A payment is asked about by its processor's id; a refund by its own, as it may not be at the processor yet.
  const id = table === "payments" ? sql`processor_payment_id` : sql`id::text`;
  return forEachDueMerchant(db, { table, where: isDue }, async (merchant) => {
    const claimed = await selectRows<{ merchant_id: number | string; id: string }>(
      db,
      sql`update ${name} set processor_checked_at = now()
          where (merchant_id, id) in (select merchant_id, id from ${name} where ${isDue} ${merchant.and()}
                                      order by created_at limit ${limit} for update skip locked)
            ${merchant.and()}
          returning merchant_id, ${id} as id`,
    );
    const connections = new Map<number, ProcessorConnection | null>();
    for (const row of claimed) {
      const merchantId = Number(row.merchant_id);
      if (!connections.has(merchantId))
        connections.set(merchantId, await readProcessorConnection(db, merchantId));
      const connection = connections.get(merchantId);
      if (!connection) continue;
      try {
        const result = await sync(merchantId, connection, row.id);
        logger.info({ environment: merchantId, table, id: row.id, result }, "Processor reconciled");
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === "unavailable")) throw error;
      }
    }
    return claimed.length;
  });
}

/** Processors' payments still pending PROCESSOR_RECONCILE_AFTER after they were made or last asked about. */
export function reconcileProcessorPayments(
  db: Executor,
  afterMs: number,
  limit = BATCH_SIZE,
): Promise<number> {
  return reconcile(db, "payments", afterMs, limit, (merchantId, connection, id) =>
    syncProcessorPayment(db, merchantId, connection, id),
  );
}

/** Processors' refunds still pending as long: sent if the processor never got them, else asked about. */
export function reconcileProcessorRefunds(
  db: Executor,
  afterMs: number,
  limit = BATCH_SIZE,
): Promise<number> {
  return reconcile(db, "refunds", afterMs, limit, async (merchantId, connection, id) => {
    const settled = await syncProcessorRefund(db, merchantId, connection, { refundId: Number(id) });
    return settled?.status ?? "pending";
  });
}

/** Asks about due payments every half period (at least every second, at most every minute). */
export const startProcessorReconciler: BackgroundService = () => {
  const afterMs = getEnv().PROCESSOR_RECONCILE_AFTER;
  const everyMs = Math.min(60_000, Math.max(1_000, afterMs / 2));
  return periodicService("Processor reconciler", everyMs, async () => {
    const payments = await reconcileProcessorPayments(getDb(), afterMs);
    const refunds = await reconcileProcessorRefunds(getDb(), afterMs);
    return payments === BATCH_SIZE || refunds === BATCH_SIZE;
  })();
};
