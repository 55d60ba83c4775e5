import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  frameworkRequestEnded,
  frameworkRequestStarted,
  IDLE_MS,
  trackEnteredStores,
} from "@/lib/platform/async-context";

/** Whether async hooks watch promises now: Node 20's promise hook tags each new promise with its ids. */
const promisesHooked = () => Object.getOwnPropertySymbols(Promise.resolve()).length > 0;

beforeAll(() => trackEnteredStores());
afterEach(() => vi.useRealTimers());

describe("the stores Next.js entered are disabled once it has no request under way", () => {
  it("keeps a store on while a request is under way and for IDLE_MS after, then turns it (and the hooks) off", async () => {
    vi.useFakeTimers();
    const store = new AsyncLocalStorage<{ page: string }>();
    frameworkRequestStarted();
    const seen = await store.run({ page: "/payments" }, async () => {
      await Promise.resolve();
      return store.getStore()?.page;
    });
    expect(seen).toBe("/payments");
    // Node 24 runs stores on AsyncContextFrame, without hooks.
    const hookedWhileRendering = promisesHooked();
    expect(hookedWhileRendering).toBe(Number(process.versions.node.split(".")[0]) < 24);

    frameworkRequestEnded();
    vi.advanceTimersByTime(IDLE_MS - 1);
    store.enterWith({ page: "/still-on" });
    expect(store.getStore()?.page).toBe("/still-on");

    vi.advanceTimersByTime(1);
    expect(store.getStore()).toBeUndefined();
    // On Node 20 the hooks were on while the store was (and go off at the next tick); on a Node whose
    // stores need no hooks, never.
    await Promise.resolve();
    if (hookedWhileRendering) expect(promisesHooked()).toBe(false);

    // The next page enters it again.
    frameworkRequestStarted();
    expect(store.run({ page: "/overview" }, () => store.getStore()?.page)).toBe("/overview");
    frameworkRequestEnded();
  });

  it("does not turn stores off while another request is still under way", () => {
    vi.useFakeTimers();
    const store = new AsyncLocalStorage<string>();
    frameworkRequestStarted();
    frameworkRequestStarted();
    store.enterWith("rendering");
    frameworkRequestEnded();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(store.getStore()).toBe("rendering");
    frameworkRequestEnded();
    vi.advanceTimersByTime(IDLE_MS);
    expect(store.getStore()).toBeUndefined();
  });
});
