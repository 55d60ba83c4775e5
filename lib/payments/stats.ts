import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/db/enums";
import type { OverviewRange } from "./filters";

export type StatusTotals = Record<PaymentStatus, { count: number; volume: string }>;
/** Gross: completed payments' volume; refunded: succeeded refunds; net: the one less the other. */
export type NetVolume = { gross: string; refunded: string; net: string; refunds: number };
/** One bar of the chart: completed payments, and the refunds that succeeded, in a day (or a month). */
export type ChartPoint = { day: string; count: number; volume: string; refunds: number; refunded: string };
export type OverviewStats = {
  byStatus: StatusTotals;
  volume: NetVolume;
  series: ChartPoint[];
  /** Days for 7, 30 and 90 days; months for all time. */
  bucket: "day" | "month";
};

/**
 * The Overview's figures for a range, all from the daily totals (payment_daily_totals by the UTC day a payment
 * was created, refund_daily_totals by the day a refund succeeded): a few rows per day whatever the number of
 * payments, so the page costs the same at ten payments and at ten million.
 */
export async function getPaymentStats(
  db: Executor,
  merchantId: number,
  range: OverviewRange = 30,
): Promise<OverviewStats> {
  const today = sql`(now() at time zone 'UTC')::date`;
  const since = range === "all" ? null : sql`${today} - ${range - 1}::int`;
  const inRange = since ? sql`and day >= ${since}` : sql``;
  const payments = sql`payment_daily_totals where merchant_id = ${merchantId} and customer_id = '' ${inRange}`;
  const refunds = sql`refund_daily_totals where merchant_id = ${merchantId} ${inRange}`;
  const bucket = range === "all" ? "month" : "day";
  const bucketOf = (day: SQL) => (bucket === "month" ? sql`date_trunc('month', ${day})::date` : day);
  // All time starts at the month of the first payment or refund (this month when there is none).
  const first =
    since ??
    sql`date_trunc('month', coalesce(least((select min(day) from payment_daily_totals
                                                where merchant_id = ${merchantId} and customer_id = ''),
                                               (select min(day) from refund_daily_totals
                                                where merchant_id = ${merchantId})), ${today}))::date`;
  const [byStatusRows, [volume], seriesRows] = await Promise.all([
    selectRows<{ status: PaymentStatus; count: number | string; volume: string | null }>(
      db,
      sql`select status, sum(count) as count, sum(volume)::numeric(20,2)::text as volume
          from ${payments} group by status`,
    ),
    selectRows<{ gross: string; refunded: string; net: string; refunds: number | string }>(
      db,
      sql`select gross::numeric(20,2)::text as gross, refunded::numeric(20,2)::text as refunded,
                 (gross - refunded)::numeric(20,2)::text as net, refunds
          from (select
            coalesce((select sum(volume) from ${payments} and status = 'completed'), 0) as gross,
            coalesce((select sum(amount) from ${refunds}), 0) as refunded,
            coalesce((select sum(count) from ${refunds}), 0) as refunds) sums`,
    ),
    selectRows<{
      day: string;
      count: number | string;
      volume: string;
      refunds: number | string;
      refunded: string;
    }>(
      db,
      sql`select to_char(b.day, 'YYYY-MM-DD') as day, coalesce(p.count, 0) as count,
                 coalesce(p.volume, 0)::numeric(20,2)::text as volume,
                 coalesce(r.count, 0) as refunds, coalesce(r.amount, 0)::numeric(20,2)::text as refunded
          from generate_series(${first}, ${today}, ${sql.raw(`interval '1 ${bucket}'`)}) as b(day)
          left join (select ${bucketOf(sql`day`)} as day, sum(count) as count, sum(volume) as volume
                     from ${payments} and status = 'completed' group by 1) p on p.day = b.day
          left join (select ${bucketOf(sql`day`)} as day, sum(count) as count, sum(amount) as amount
                     from ${refunds} group by 1) r on r.day = b.day
          order by b.day`,
    ),
  ]);
  const byStatus = Object.fromEntries(
    PAYMENT_STATUSES.map((status) => [status, { count: 0, volume: "0.00" }]),
  ) as StatusTotals;
  for (const row of byStatusRows)
    byStatus[row.status] = { count: Number(row.count), volume: row.volume ?? "0.00" };
  return {
    byStatus,
    volume: volume
      ? { ...volume, refunds: Number(volume.refunds) }
      : { gross: "0.00", refunded: "0.00", net: "0.00", refunds: 0 },
    series: seriesRows.map((row) => ({
      day: row.day,
      count: Number(row.count),
      volume: row.volume,
      refunds: Number(row.refunds),
      refunded: row.refunded,
    })),
    bucket,
  };
}
