import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { decideDueDisputes, openDueDisputes } from "@/lib/disputes/simulator";
import { advanceTarget } from "@/lib/environments/clock-input";
import { sandboxOfAccount } from "@/lib/environments/environments";
import { releaseBalance } from "@/lib/ledger/release";
import { expireStalePayments, settleDuePayments } from "@/lib/payments/settlement";
import { moveDuePayouts } from "@/lib/payouts/payouts";
import { runScheduledPayouts } from "@/lib/payouts/schedule";
import { DAY_MS } from "@/lib/platform/day-count-pages";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { sandboxClockAt, type WorkClock } from "@/lib/platform/work-clock";
import { settleDueRefunds } from "@/lib/refunds/settlement";

// A sandbox's test clock (DESIGN.md, "Test clock"): made with `clock`, the sandbox stands at that time until an
// advance moves it forward. The background services pass it over (lib/platform/work-clock.ts); an advance runs
// the same steps over it, in time order, at each instant one falls due.

export type ClockState = { sandboxId: number; now: Date; testClock: boolean };

/** Where the sandbox's time stands: its clock, or real time for a sandbox without one. */
export async function readClock(db: Executor, merchantId: number): Promise<ClockState> {
  const [row] = await selectRows<{ clock_at: Date | string | null; now: Date | string }>(
    db,
    sql`select clock_at, now() as now from merchants where id = ${merchantId}`,
  );
  if (!row) throw new DomainError("not_found", "No such sandbox.");
  return {
    sandboxId: merchantId,
    now: new Date(row.clock_at ?? row.now),
    testClock: row.clock_at !== null,
  };
}

/** The clock as the API shows it. */
export const toClockResource = (clock: ClockState) => ({
  sandbox_id: clock.sandboxId,
  now: clock.now.toISOString(),
  test_clock: clock.testClock,
});

/**
 * `POST /api/test-helpers/clock/advance`: moves the sandbox's clock to the target, stopping at each instant a
 * time-driven step falls due (a settle, an expiry, a balance becoming available, a payout moving or made by the
 * schedule at midnight, a dispute opening or decided) and running there the steps that are due, in time order,
 * so each is written at the time it would have been. Returns the clock when all are done.
 */
export async function advanceClock(db: Executor, merchantId: number, input: unknown): Promise<ClockState> {
  const clock = await readClock(db, merchantId);
  if (!clock.testClock)
    throw validationError({
      clock: ["This sandbox runs on real time: make a sandbox with a clock to move its time."],
    });
  const target = advanceTarget(input, clock);
  let at = clock.now;
  // Steps that found nothing to do at `at` although a row looked due (one a step passes over): not run again there.
  const idle = new Set<StepName>();
  for (;;) {
    const due = await dueTimes(db, merchantId, at);
    const now = STEP_NAMES.filter(
      (name) => !idle.has(name) && due[name] !== null && due[name] <= at.getTime(),
    );
    if (now.length > 0) {
      for (const name of now)
        if ((await STEPS[name](db, sandboxClockAt(merchantId, at), at)) === 0) idle.add(name);
      continue;
    }
    // The next instant anything falls due; the schedule's is always the next midnight.
    const later = STEP_NAMES.map((name) => due[name] ?? Infinity).filter((time) => time > at.getTime());
    const next = Math.min(...later, nextMidnight(at));
    if (next > target.getTime()) break;
    at = new Date(next);
    idle.clear();
    await setClock(db, merchantId, at);
  }
  await setClock(db, merchantId, target);
  return { ...clock, now: target };
}

/** The clock moved to `at`, never back (two advances at once: the later wins). */
async function setClock(db: Executor, merchantId: number, at: Date): Promise<void> {
  await selectRows(
    db,
    sql`update merchants set clock_at = greatest(clock_at, ${at.toISOString()}::timestamptz) where id = ${merchantId}`,
  );
}

const BATCH = 500;

/** The first midnight (UTC) after `at`. */
const nextMidnight = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + DAY_MS;

/**
 * The time-driven steps, in the order a moment's steps depend on (a payment settles before its balance is
 * released, a balance is released before the schedule pays it out); each returns how much it did.
 */
const STEPS = {
  settle: (db, clock) => settleDuePayments(db, BATCH, undefined, clock),
  expire: (db, clock) => expireStalePayments(db, getEnv().PAYMENTS_PENDING_EXPIRE_AFTER, BATCH, clock),
  refunds: (db, clock) => settleDueRefunds(db, BATCH, clock),
  open: (db, clock) => openDueDisputes(db, BATCH, clock),
  decide: (db, clock) => decideDueDisputes(db, BATCH, clock),
  release: (db, clock) => releaseBalance(db, { limit: BATCH, clock }),
  schedule: (db, clock, at) =>
    runScheduledPayouts(db, at.toISOString().slice(0, 10), getEnv().PAYMENTS_AUTO_SETTLE_MS, 1, clock),
  payouts: (db, clock) => moveDuePayouts(db, getEnv().PAYMENTS_AUTO_SETTLE_MS, BATCH, clock),
} satisfies Record<string, (db: Executor, clock: WorkClock, at: Date) => Promise<number>>;
type StepName = keyof typeof STEPS;
const STEP_NAMES = Object.keys(STEPS) as StepName[];

/**
 * When each step is next due for the sandbox (ms since the epoch; null: nothing waits on it): the earliest of
 * its rows, which may be at or before `at` (due now), and for the schedule the midnight (UTC) at or after `at`.
 */
async function dueTimes(
  db: Executor,
  merchantId: number,
  at: Date,
): Promise<Record<StepName, number | null>> {
  const expireAfter = getEnv().PAYMENTS_PENDING_EXPIRE_AFTER;
  const merchant = sql`merchant_id = ${merchantId}::bigint`;
  const [row] = await selectRows<Record<Exclude<StepName, "schedule">, Date | string | null>>(
    db,
    sql`select
          (select min(settle_at) from payments where ${merchant} and status = 'pending') as settle,
          (select min(created_at) + ${expireAfter}::bigint * interval '1 millisecond' from payments
           where ${merchant} and status = 'pending' and ${expireAfter}::bigint > 0) as expire,
          (select min(settle_at) from refunds where ${merchant} and status = 'pending') as refunds,
          (select min(open_at) from scheduled_disputes where ${merchant}) as open,
          least((select min(decide_at) from disputes where ${merchant}),
                (select min(evidence_due_by) from disputes
                 where ${merchant} and status in ('needs_response', 'warning_needs_response'))) as decide,
          (select min(available_on) from balance_transactions where ${merchant} and status = 'pending') as release,
          (select min(move_at) from payouts where ${merchant} and status in ('pending', 'in_transit')) as payouts`,
  );
  const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : null);
  const midnight = nextMidnight(at) - DAY_MS;
  return {
    settle: time(row?.settle),
    expire: time(row?.expire),
    refunds: time(row?.refunds),
    open: time(row?.open),
    decide: time(row?.decide),
    release: time(row?.release),
    schedule: midnight === at.getTime() ? midnight : midnight + DAY_MS,
    payouts: time(row?.payouts),
  };
}

/** Settings → Sandboxes' "Advance": the account's own sandbox, else 404, then as the API does. */
export async function advanceSandboxClock(
  db: Executor,
  accountId: number,
  sandboxId: number,
  input: unknown,
): Promise<ClockState> {
  await sandboxOfAccount(db, accountId, sandboxId);
  return advanceClock(db, sandboxId, input);
}
