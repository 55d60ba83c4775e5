import "server-only";
import { getDb } from "@/db/client";
import type { BackgroundService } from "@/lib/platform/background-service";
import { periodicService } from "@/lib/platform/periodic-service";
import { releaseBalance } from "./release";

const POLL_MS = 5_000;
const BATCH_SIZE = 500;

/** Makes balance transactions available as their available_on comes (BALANCE_AVAILABLE_AFTER after completion). */
export const startBalanceReleaser: BackgroundService = periodicService(
  "Balance releaser",
  POLL_MS,
  async () => (await releaseBalance(getDb(), { limit: BATCH_SIZE })) === BATCH_SIZE,
);
