import type { BackgroundService } from "./background-service";
import { logger } from "./logger";
import { pause } from "./pause";

/**
 * A background loop: runs `runOnce`, then again at once if it says more work is waiting, else after
 * `everyMs`. A failure is logged and retried on the next round; stopping wakes the pause and waits for the
 * round under way.
 */
export function periodicService(
  label: string,
  everyMs: number,
  runOnce: () => Promise<boolean>,
): BackgroundService {
  const service: BackgroundService = () => {
    let running = true;
    let wake: (() => void) | undefined;
    const loop = async () => {
      while (running) {
        try {
          if (await runOnce()) continue;
        } catch (error) {
          logger.error({ err: error }, `${label} failed`);
        }
        // A stop during the round found no pause to wake: it must not wait a whole period (an hour for some).
        if (running) await pause(everyMs, (wakeNow) => (wake = wakeNow));
      }
    };
    const done = loop();
    return Promise.resolve(async () => {
      running = false;
      wake?.();
      await done;
    });
  };
  // Named by its label, so a stop that overruns says which (background-services.ts).
  return Object.defineProperty(service, "name", { value: label });
}
