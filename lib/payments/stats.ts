import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/db/enums";
import type { ChartRange } from "./filters";

export type StatusTotals = Record<PaymentStatus, { count: number; volume: string }>;
export type DailyTotals = Array<{ day: string; count: number; volume: string }>;
/** Gross: completed payments' volume; refunded: succeeded refunds; net: the one less the other. */
export type NetVolume = { gross: string; refunded: string; net: string };

/** Count and volume per status, and per day for the last `days` days (UTC), for the Overview page. */
export async function getPaymentStats(
  db: Executor,
  merchantId: number,
  days: ChartRange = 30,
): Promise<{ byStatus: StatusTotals; daily: DailyTotals; volume: NetVolume }> {
  // The first two read payment_daily_totals (kept by the create and settle statements): a few rows per
  // day, not one per payment. Refunds are summed from their own table: a merchant has far fewer of them.
  const [byStatusRows, dailyRows, [volume]] = await Promise.all([
    selectRows<{ status: PaymentStatus; count: number | string; volume: string | null }>(
      db,
      sql`select status, sum(count) as count, sum(volume)::numeric(20,2)::text as volume
          from payment_daily_totals where merchant_id = ${merchantId} and customer_id = '' group by status`,
    ),
    selectRows<{ day: string; count: number | string; volume: string | null }>(
      db,
      sql`select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(sum(t.count), 0) as count,
                 coalesce(sum(t.volume), 0)::numeric(20,2)::text as volume
          from generate_series((now() at time zone 'utc')::date - ${days - 1}::int, (now() at time zone 'utc')::date, interval '1 day') as d(day)
          left join payment_daily_totals t on t.merchant_id = ${merchantId} and t.customer_id = '' and t.day = d.day::date
          group by d.day order by d.day`,
    ),
    selectRows<NetVolume>(
      db,
      sql`select gross::numeric(20,2)::text as gross, refunded::numeric(20,2)::text as refunded,
                 (gross - refunded)::numeric(20,2)::text as net
          from (select
            coalesce((select sum(volume) from payment_daily_totals
                      where merchant_id = ${merchantId} and customer_id = '' and status = 'completed'), 0) as gross,
            coalesce((select sum(amount) from refunds
                      where merchant_id = ${merchantId} and status = 'succeeded'), 0) as refunded) sums`,
    ),
  ]);
  const byStatus = Object.fromEntries(
    PAYMENT_STATUSES.map((status) => [status, { count: 0, volume: "0.00" }]),
  ) as StatusTotals;
  for (const row of byStatusRows)
    byStatus[row.status] = { count: Number(row.count), volume: row.volume ?? "0.00" };
  return {
    byStatus,
    volume: volume ?? { gross: "0.00", refunded: "0.00", net: "0.00" },
    daily: dailyRows.map((row) => ({ day: row.day, count: Number(row.count), volume: row.volume ?? "0.00" })),
  };
}
