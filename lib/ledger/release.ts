import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { REAL_TIME, type WorkClock } from "@/lib/platform/work-clock";
import { addToBalances, moveAvailableTotals } from "./postings";

/**
 * Makes pending balance transactions available: their net moves from `pending` to `available` (a `release`
 * posting), a batch per statement. Without a merchant: those whose available_on has come, any merchant's
 * (the background releaser; SKIP LOCKED lets several workers share them). With one: all of that merchant's,
 * due or not (POST /api/test-helpers/balance/release). Returns how many it released.
 */
export async function releaseBalance(
  db: Executor,
  {
    merchantId,
    limit = 500,
    clock = REAL_TIME,
  }: { merchantId?: number; limit?: number; clock?: WorkClock } = {},
): Promise<number> {
  if (merchantId === undefined) {
    const isDue = sql`available_on <= ${clock.now} and ${clock.covers()}`;
    return forEachDueMerchant(
      db,
      { table: "balance_transactions", where: sql`status = 'pending' and ${isDue}` },
      (merchant) =>
        releaseSome(
          db,
          sql`${isDue} ${merchant.and()} order by available_on limit ${limit} for update skip locked`,
          clock,
        ),
    );
  }
  // The test helper: at the merchant's own time (a sandbox's test clock, if it has one).
  return releaseSome(db, sql`merchant_id = ${merchantId} order by available_on limit ${limit} for update`, {
    ...clock,
    now: sql`merchant_now(${merchantId}::bigint)`,
  });
}

async function releaseSome(db: Executor, which: SQL, clock: WorkClock): Promise<number> {
  const [row] = await selectRows<{ released: number }>(
    db,
    sql`with due as (
          select merchant_id, id, available_on from balance_transactions where status = 'pending' and ${which}),
        released as (
          -- Released early (the test helper), it is available from now, not on the day it was due.
          update balance_transactions b set status = 'available', available_on = least(b.available_on, clock.now)
          from due, (select ${clock.now} as now) clock
          where b.merchant_id = due.merchant_id and b.id = due.id and b.status = 'pending'
          returning b.merchant_id, b.id, b.type, b.currency, b.net, due.available_on as was_available_on,
                    b.available_on),
        moved as (select * from released where available_on <> was_available_on),
        ${moveAvailableTotals(sql`moved`, "early")},
        lines as (
          select merchant_id, id as transaction_id, currency, account, amount
          from released, lateral (values ('pending', -net), ('available', net)) as moved (account, amount)),
        ${addToBalances(sql`lines`, "release")}
        select count(*)::int as released from released`,
  );
  return row?.released ?? 0;
}

/** Releases everything of the merchant now, batch after batch (the test helper). */
export async function releaseMerchantBalance(db: Executor, merchantId: number): Promise<number> {
  let total = 0;
  for (;;) {
    const released = await releaseBalance(db, { merchantId });
    total += released;
    if (released === 0) return total;
  }
}
