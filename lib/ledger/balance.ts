import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { inMinorUnits } from "@/lib/money/amount";

const amountsSchema = z.array(
  z.object({
    currency: z.string().describe('ISO 4217, upper case: "EUR".'),
    amount: z.string().describe('In its currency\'s minor units; negative when refunds took more: "-2.00".'),
  }),
);

/** GET /api/balance's `data`. */
export const balanceSchema = z.object({
  available: amountsSchema.describe("What can be paid out now, per currency."),
  pending: amountsSchema.describe("What completed payments added that is not available yet, per currency."),
});
export type Balance = z.infer<typeof balanceSchema>;

/**
 * GET /api/balance: what the merchant has, per currency, available and pending. A sum of at most a few slots
 * per account and currency (ledger_balances), whatever the number of transactions. A currency the merchant has
 * had shows even at 0, negative when refunds took more than was available.
 */
export async function getBalance(db: Executor, merchantId: number): Promise<Balance> {
  const rows = await selectRows<{ account: "available" | "pending"; currency: string; amount: string }>(
    db,
    sql`select account, currency, sum(amount)::text as amount from ledger_balances
        where merchant_id = ${merchantId} and account in ('available', 'pending')
        group by 1, 2 order by 2, 1`,
  );
  const currencies = [...new Set(rows.map((row) => row.currency))];
  const of = (account: "available" | "pending") =>
    currencies.map((currency) => ({
      currency,
      amount: inMinorUnits(
        rows.find((row) => row.account === account && row.currency === currency)?.amount ?? "0",
        currency,
      ),
    }));
  return { available: of("available"), pending: of("pending") };
}

export type BalancePoint = { day: string; balance: string };

/**
 * The balance (available and pending) in one currency at the end of each of the last `days` UTC days, today
 * included: today's balance less what moved it after each day. One merchant's balance slots and its last days'
 * totals (a few rows a day), whatever its history's length.
 */
export async function balanceHistory(
  db: Executor,
  merchantId: number,
  currency: string,
  days = 30,
): Promise<BalancePoint[]> {
  // Each day's balance is today's less a running sum of the days after it, from the daily totals.
  const rows = await selectRows<{ day: string; balance: string }>(
    db,
    sql`with bounds as (select (now() at time zone 'UTC')::date as today),
        moves as (
          select day, sum(net) as net from balance_transaction_daily_totals, bounds
          where merchant_id = ${merchantId} and currency = ${currency} and day >= bounds.today - ${days - 1}::int
          group by 1),
        now_total as (
          select coalesce(sum(amount), 0) as total from ledger_balances
          where merchant_id = ${merchantId} and currency = ${currency} and account in ('available', 'pending')),
        each_day as (
          select d.day::date as day, coalesce(moves.net, 0) as net
          from bounds, generate_series(bounds.today - ${days - 1}::int, bounds.today, interval '1 day') as d(day)
          left join moves on moves.day = d.day::date)
        select to_char(day, 'YYYY-MM-DD') as day,
               (now_total.total - coalesce(sum(net) over (order by day desc rows between unbounded preceding
                                                          and 1 preceding), 0))::text as balance
        from each_day, now_total
        order by 1`,
  );
  return rows.map((row) => ({ day: row.day, balance: inMinorUnits(row.balance, currency) }));
}
