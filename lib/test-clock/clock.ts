import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { decideDueDisputes, openDueDisputes } from "@/lib/disputes/simulator";
import { advanceTarget } from "@/lib/environments/clock-input";
import { releaseBalance } from "@/lib/ledger/release";
import { expireStalePayments, settleDuePayments } from "@/lib/payments/settlement";
import { moveDuePayouts } from "@/lib/payouts/payouts";
import { runScheduledPayouts } from "@/lib/payouts/schedule";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { sandboxClockAt } from "@/lib/platform/work-clock";
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
 * schedule at midnight, a dispute opening or decided) and running it there, in time order, so each is written
 * at the time it would have been. Returns the clock when all are done.
 */
export async function advanceClock(db: Executor, merchantId: number, input: unknown): Promise<ClockState> {
  const clock = await readClock(db, merchantId);
  if (!clock.testClock)
    throw validationError({
      clock: ["This sandbox runs on real time: make a sandbox with a clock to move its time."],
    });
  const target = advanceTarget(input, clock);
  let at = clock.now;
  for (;;) {
    while ((await runDueSteps(db, merchantId, at)) > 0);
    const next = await nextDueAfter(db, merchantId, at, target);
    if (!next) break;
    at = next;
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

const STEP_BATCH = 100;

/** Each time-driven step over the sandbox at `at`, in the order a moment's steps depend on; how much they did. */
async function runDueSteps(db: Executor, merchantId: number, at: Date): Promise<number> {
  const clock = sandboxClockAt(merchantId, at);
  const env = getEnv();
  const expireAfter = env.PAYMENTS_PENDING_EXPIRE_AFTER;
  const day = at.toISOString().slice(0, 10);
  const midnight = at.getTime() === new Date(`${day}T00:00:00Z`).getTime();
  let done = await settleDuePayments(db, STEP_BATCH, undefined, clock);
  if (expireAfter > 0) done += await expireStalePayments(db, expireAfter, STEP_BATCH, clock);
  done += await settleDueRefunds(db, STEP_BATCH, clock);
  done += await openDueDisputes(db, STEP_BATCH, clock);
  done += await decideDueDisputes(db, STEP_BATCH, clock);
  done += await releaseBalance(db, { limit: STEP_BATCH, clock });
  if (midnight) done += await runScheduledPayouts(db, day, env.PAYMENTS_AUTO_SETTLE_MS, 1, clock);
  done += await moveDuePayouts(db, env.PAYMENTS_AUTO_SETTLE_MS, STEP_BATCH, clock);
  return done;
}

/** The first instant after `at`, up to `target`, at which one of the sandbox's steps falls due; null: none. */
async function nextDueAfter(db: Executor, merchantId: number, at: Date, target: Date): Promise<Date | null> {
  const after = sql`${at.toISOString()}::timestamptz`;
  const expireAfter = getEnv().PAYMENTS_PENDING_EXPIRE_AFTER;
  const merchant = sql`merchant_id = ${merchantId}::bigint`;
  const [row] = await selectRows<{ next: Date | string | null }>(
    db,
    sql`select least(
          (select min(settle_at) from payments where ${merchant} and status = 'pending' and settle_at > ${after}),
          (select min(created_at) + ${expireAfter}::bigint * interval '1 millisecond' from payments
           where ${merchant} and status = 'pending' and ${expireAfter}::bigint > 0
             and created_at > ${after} - ${expireAfter}::bigint * interval '1 millisecond'),
          (select min(settle_at) from refunds where ${merchant} and status = 'pending' and settle_at > ${after}),
          (select min(available_on) from balance_transactions
           where ${merchant} and status = 'pending' and available_on > ${after}),
          (select min(move_at) from payouts
           where ${merchant} and status in ('pending', 'in_transit') and move_at > ${after}),
          (select min(open_at) from scheduled_disputes where ${merchant} and open_at > ${after}),
          (select min(decide_at) from disputes where ${merchant} and decide_at > ${after}),
          (select min(evidence_due_by) from disputes
           where ${merchant} and status in ('needs_response', 'warning_needs_response') and evidence_due_by > ${after}),
          date_trunc('day', ${after}, 'UTC') + interval '1 day') as next`,
  );
  const next = row?.next ? new Date(row.next) : null;
  return next && next.getTime() <= target.getTime() ? next : null;
}
