import "server-only";
import { getDb } from "@/db/client";
import { periodicService } from "@/lib/platform/periodic-service";
import { settleDuePayments } from "./settlement";

/** Due payments are looked for this often; a full batch is followed at once by the next. */
const POLL_MS = 500;
const BATCH_SIZE = 100;

/** The simulated processor's loop: settles payments as their settle_at passes. */
export const startSettler = periodicService(
  "Settler",
  POLL_MS,
  async () => (await settleDuePayments(getDb(), BATCH_SIZE)) === BATCH_SIZE,
);
