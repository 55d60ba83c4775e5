import { AsyncLocalStorage } from "node:async_hooks";

/**
 * On Node 20 an AsyncLocalStorage runs on async hooks: once any store has been entered, every promise, tick
 * and timer in the process pays for the hooks, until every entered store is disabled again. Here only
 * Next.js (pages, server actions, next-auth's routes) enters stores; the merchant API never does. Measured on
 * the API list (BENCHMARKS.md): the hooks were 7% of its CPU per request in a process that had served one
 * dashboard page, and cost it 10–20% of its throughput.
 *
 * So the server counts the requests Next.js has under way and, once none has been for IDLE_MS, disables the
 * stores Next.js entered. The next page it renders enters them again (run() re-enables a store). IDLE_MS is
 * longer than any work a page may still do after its response has closed (a client gone mid-render still
 * lets the render finish its statements, which DATABASE_STATEMENT_TIMEOUT_MS bounds at 30 s by default).
 */
export const IDLE_MS = 30_000;

const entered = new Set<AsyncLocalStorage<unknown>>();
let inFlight = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** Records every store entered from now on. Call before Next.js is loaded. */
export function trackEnteredStores(): void {
  const prototype = AsyncLocalStorage.prototype;
  // Both are called back with their own `this` (Reflect.apply), never unbound.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const { run, enterWith } = prototype;
  prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: never[]) {
    entered.add(this);
    return Reflect.apply(run, this, args) as unknown;
  } as typeof run;
  prototype.enterWith = function (this: AsyncLocalStorage<unknown>, store: unknown) {
    entered.add(this);
    Reflect.apply(enterWith, this, [store]);
  };
}

function disableIdleStores(): void {
  if (inFlight === 0) for (const store of entered) store.disable();
}

/** A request handed to Next.js: its stores stay on until it closes and IDLE_MS more have passed. */
export function frameworkRequestStarted(): void {
  inFlight += 1;
  clearTimeout(idleTimer);
}

/** A Next.js request closed (answered, or abandoned by its client). */
export function frameworkRequestEnded(): void {
  inFlight -= 1;
  if (inFlight === 0) startIdleTimer();
}

/** Disables the stores entered so far once IDLE_MS pass without a Next.js request: at boot, for startup's. */
export function startIdleTimer(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(disableIdleStores, IDLE_MS).unref();
}
