import "server-only";
import { getDb } from "@/db/client";
import type { BackgroundService } from "@/lib/platform/background-services";
import { pause } from "@/lib/platform/pause";
import { settleDuePayments } from "./settlement";

/** Due payments are looked for this often; a full batch is followed at once by the next. */
const POLL_MS = 500;
const BATCH_SIZE = 100;

/** The simulated processor's loop: settles payments as their settle_at passes. */
export const startSettler: BackgroundService = () => {
  let running = true;
  let wake: (() => void) | undefined;
  const loop = async () => {
    while (running) {
      try {
        if ((await settleDuePayments(getDb(), BATCH_SIZE)) === BATCH_SIZE) continue;
      } catch (error) {
        console.error("Settler failed", error);
      }
      await pause(POLL_MS, (wakeNow) => (wake = wakeNow));
    }
  };
  const done = loop();
  return Promise.resolve(async () => {
    running = false;
    wake?.();
    await done;
  });
};
