import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, selectRows, type Executor } from "@/db/client";
import { PAYOUT_SCHEDULES } from "@/db/enums";
import { merchants } from "@/db/schema";
import type { BackgroundService } from "@/lib/platform/background-service";
import { getEnv } from "@/lib/platform/env";
import { logger } from "@/lib/platform/logger";
import { periodicService } from "@/lib/platform/periodic-service";
import { messages, parseInput } from "@/lib/platform/validation";
import { REAL_TIME, type WorkClock } from "@/lib/platform/work-clock";
import { createPayout, moveDuePayouts } from "./payouts";

const scheduleSchema = z.object({
  payout_schedule: z.enum(PAYOUT_SCHEDULES, { error: messages.in("payout_schedule") }),
});

/** Settings → Payouts: daily (00:00 UTC), weekly (Mondays) or manual. */
export async function setPayoutSchedule(db: Executor, merchantId: number, input: unknown) {
  const { payout_schedule } = parseInput(scheduleSchema, input);
  await db
    .update(merchants)
    .set({ payoutSchedule: payout_schedule, updatedAt: new Date() })
    .where(eq(merchants.id, merchantId));
  return { payout_schedule };
}

/**
 * The schedule's run for `today` (a UTC date): each merchant due (daily; weekly on Mondays), not yet paid
 * out today and created before today, is claimed for the day, then, with a payout account, paid out all that
 * is available in each currency. A claim is one row's update, so two workers never pay a merchant twice.
 * Returns how many merchants it paid out.
 */
export async function runScheduledPayouts(
  db: Executor,
  today: string,
  autoSettleMs: number,
  limit = 20,
  clock: WorkClock = REAL_TIME,
) {
  const monday = new Date(`${today}T00:00:00Z`).getUTCDay() === 1;
  const claimed = await selectRows<{ id: string }>(
    db,
    sql`update merchants m set last_scheduled_payout_on = ${today}::date
        where m.id in (
          select id from merchants
          where (payout_schedule = 'daily' or (payout_schedule = 'weekly' and ${monday}))
            and coalesce(last_scheduled_payout_on, (created_at at time zone 'UTC')::date) < ${today}::date
            and ${clock.covers("id")}
          limit ${limit} for update skip locked)
        returning m.id`,
  );
  for (const { id } of claimed) {
    const merchantId = Number(id);
    // Asked apart, not in the claim: merchants is global (a reference table on Citus), its accounts sharded.
    // An account a payout failed on waits for its replacement (DESIGN.md, "A payout account that failed").
    const [account] = await selectRows<{ held: boolean }>(
      db,
      sql`select coalesce(payouts_start_at > ${clock.now}, false) as held from payout_accounts
          where merchant_id = ${merchantId} and status = 'active'`,
    );
    // Replaced lately (PAYOUT_ACCOUNT_CHANGE_HOLD): the day's payout waits for the next scheduled day, which pays
    // all that is available then, so nothing is lost. (Giving the claim back instead would have the held
    // merchants claimed again each run, ahead of the others.)
    if (!account || account.held) continue;
    const currencies = await selectRows<{ currency: string }>(
      db,
      sql`select currency from ledger_balances where merchant_id = ${merchantId} and account = 'available'
          group by currency having sum(amount) > 0 order by currency`,
    );
    for (const { currency } of currencies)
      await createPayout(db, merchantId, { currency }, { autoSettleMs }).catch((error: unknown) =>
        logger.warn({ err: error, merchantId, currency }, "Scheduled payout not made"),
      );
  }
  return claimed.length;
}

const SIMULATOR_BATCH = 50;

/** The simulated bank: payouts move on as their move_at comes (PAYMENTS_AUTO_SETTLE_MS apart; 0: never). */
export const startPayoutSimulator: BackgroundService = periodicService(
  "Payout simulator",
  1_000,
  async () => {
    const stepMs = getEnv().PAYMENTS_AUTO_SETTLE_MS;
    return (await moveDuePayouts(getDb(), stepMs, SIMULATOR_BATCH)) === SIMULATOR_BATCH;
  },
);

/** The payout schedule, checked each minute: a day's payouts start within a minute of 00:00 UTC. */
export const startPayoutScheduler: BackgroundService = periodicService(
  "Payout schedule",
  60_000,
  async () => {
    const today = new Date().toISOString().slice(0, 10);
    return (await runScheduledPayouts(getDb(), today, getEnv().PAYMENTS_AUTO_SETTLE_MS)) > 0;
  },
);
