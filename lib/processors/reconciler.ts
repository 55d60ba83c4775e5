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

// A webhook that never came (DESIGN.md, "Processors"): a processor's payment still pending
// PROCESSOR_RECONCILE_AFTER after it was made, or after it was last asked about, is asked about again.

const BATCH_SIZE = 100;

/**
 * Claims a batch of the processors' payments due a question (stamping `processor_checked_at` in the claim, so
 * another worker takes others, and one is asked again only a period later), then asks each one's processor
 * and makes the transition it calls for. A processor that cannot be asked now is asked next period. Returns
 * how many were claimed.
 */
export async function reconcileProcessorPayments(
  db: Executor,
  afterMs: number,
  limit = BATCH_SIZE,
): Promise<number> {
  const age = sql`now() - ${afterMs}::bigint * interval '1 millisecond'`;
  const isDue = sql`status = 'pending' and processor <> 'simulator' and created_at <= ${age}
                    and (processor_checked_at is null or processor_checked_at <= ${age})`;
  return forEachDueMerchant(db, { table: "payments", where: isDue }, async (merchant) => {
    const claimed = await selectRows<{ merchant_id: number | string; processor_payment_id: string }>(
      db,
      sql`update payments set processor_checked_at = now()
          where (merchant_id, id) in (select merchant_id, id from payments where ${isDue} ${merchant.and()}
                                      order by created_at limit ${limit} for update skip locked)
            ${merchant.and()}
          returning merchant_id, processor_payment_id`,
    );
    const connections = new Map<number, ProcessorConnection | null>();
    for (const row of claimed) {
      const merchantId = Number(row.merchant_id);
      if (!connections.has(merchantId))
        connections.set(merchantId, await readProcessorConnection(db, merchantId));
      const connection = connections.get(merchantId);
      if (!connection) continue;
      try {
        const result = await syncProcessorPayment(db, merchantId, connection, row.processor_payment_id);
        logger.info(
          { environment: merchantId, id: row.processor_payment_id, result },
          "Processor reconciled",
        );
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === "unavailable")) throw error;
      }
    }
    return claimed.length;
  });
}

/** Asks about due payments every half period (at least every second, at most every minute). */
export const startProcessorReconciler: BackgroundService = () => {
  const afterMs = getEnv().PROCESSOR_RECONCILE_AFTER;
  const everyMs = Math.min(60_000, Math.max(1_000, afterMs / 2));
  return periodicService(
    "Processor reconciler",
    everyMs,
    async () => (await reconcileProcessorPayments(getDb(), afterMs)) === BATCH_SIZE,
  )();
};
