import "server-only";
import { getDb, type Executor } from "@/db/client";
import type { BackgroundService } from "@/lib/platform/background-service";
import { getEnv } from "@/lib/platform/env";
import { periodicService } from "@/lib/platform/periodic-service";
import { expireStalePayments, settleDuePayments } from "./settlement";

/** Due payments and refunds are looked for this often; a full batch is followed at once by the next. */
const POLL_MS = 500;
const BATCH_SIZE = 100;

/** Settles up to `batchSize` of a domain's due rows and says how many it settled. */
export type SettleDue = (db: Executor, batchSize: number) => Promise<number>;

/**
 * The simulated processor's loop: settles payments and refunds as their settle_at passes, and fails
 * payments pending longer than PAYMENTS_PENDING_EXPIRE_AFTER. The refunds' step is handed in
 * (lib/worker/services.ts passes settleDueRefunds), because refunds/ imports payments/ and not the reverse.
 */
export function settlerService(settleDueRefunds: SettleDue): BackgroundService {
  return periodicService("Settler", POLL_MS, async () => {
    const db = getDb();
    const expireAfter = getEnv().PAYMENTS_PENDING_EXPIRE_AFTER;
    // One after another: PGlite has one connection, and each is a short transaction of its own.
    const payments = await settleDuePayments(db, BATCH_SIZE);
    const refunds = await settleDueRefunds(db, BATCH_SIZE);
    const expired = expireAfter > 0 ? await expireStalePayments(db, expireAfter, BATCH_SIZE) : 0;
    return [payments, refunds, expired].some((count) => count === BATCH_SIZE);
  });
}
