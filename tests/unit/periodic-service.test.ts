import { describe, expect, it } from "vitest";
import { periodicService } from "@/lib/platform/periodic-service";

/**
 * A stop that arrives while a round is under way (a worker stopped right after it started: its first rounds
 * run at once) used to find no pause to wake, and the loop then paused a whole period before it saw the stop:
 * an hour for the hourly services, so `npm run worker` hung on SIGTERM. Counted, not timed: the rounds run.
 */
describe("periodicService", () => {
  it("stopped during a round, it finishes that round and stops without pausing its period", async () => {
    let rounds = 0;
    let finishRound: (() => void) | undefined;
    let started: () => void = () => undefined;
    const roundStarted = new Promise<void>((resolve) => (started = resolve));
    const stop = await periodicService("hourly", 3_600_000, async () => {
      rounds++;
      started();
      await new Promise<void>((resolve) => (finishRound = resolve));
      return false;
    })();
    await roundStarted;
    const stopped = stop();
    finishRound!();
    // Without the fix this waits an hour: the test's timeout ends it as a failure.
    await stopped;
    expect(rounds).toBe(1);
  });

  it("stopped while it pauses, it wakes and stops", async () => {
    let rounds = 0;
    const stop = await periodicService("hourly", 3_600_000, () => {
      rounds++;
      return Promise.resolve(false);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await stop();
    expect(rounds).toBe(1);
  });
});
