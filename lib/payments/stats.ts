import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/db/enums";
import { inMinorUnits } from "@/lib/money/amount";
import type { OverviewRange } from "./filters";

export type StatusTotals = Record<PaymentStatus, { count: number; volume: string }>;
/** Gross: completed payments' volume; refunded: succeeded refunds; net: the one less the other. */
/**
 * Net volume is gross less refunds less what disputes took and did not give back (DESIGN.md, "Disputed
 * money"); the payments' fees and the dispute fees are fees, shown apart, never in it.
 */
export type NetVolume = {
  gross: string;
  refunded: string;
  disputed: string;
  paymentFees: string;
  disputeFees: string;
  net: string;
  refunds: number;
};
/** One bar of the chart: completed payments, and the refunds that succeeded, in a day (or a month). */
export type ChartPoint = { day: string; count: number; volume: string; refunds: number; refunded: string };
export type OverviewStats = {
  /** Every figure is in this one currency: no sum adds two. */
  currency: string;
  byStatus: StatusTotals;
  volume: NetVolume;
  series: ChartPoint[];
  /** Days for 7, 30 and 90 days; months for all time. */
  bucket: "day" | "month";
};

/** The currencies the merchant has taken payments in, sorted: with its default, the Overview's switch. */
export async function usedCurrencies(db: Executor, merchantId: number): Promise<string[]> {
  const rows = await selectRows<{ currency: string }>(
    db,
    sql`select distinct currency from payment_daily_totals
        where merchant_id = ${merchantId} and customer_id = '' order by currency`,
  );
  return rows.map((row) => row.currency);
}

/**
 * The Overview's currency: the one asked for when the merchant has used it, else its default; and the
 * switch's choices, the default first.
 */
export function overviewCurrency(asked: unknown, used: string[], defaultCurrency: string) {
  const choices = [defaultCurrency, ...used.filter((code) => code !== defaultCurrency)];
  const currency = typeof asked === "string" && choices.includes(asked) ? asked : defaultCurrency;
  return { currency, choices };
}

/**
 * The Overview's figures for a range, in one currency, all from the daily totals (payment_daily_totals by the UTC day a payment
 * was created, refund_daily_totals by the day a refund succeeded): a few rows per day whatever the number of
 * payments, so the page costs the same at ten payments and at ten million.
 */
export async function getPaymentStats(
  db: Executor,
  merchantId: number,
  currency: string,
  range: OverviewRange = 30,
): Promise<OverviewStats> {
  const today = sql`(now() at time zone 'UTC')::date`;
  const since = range === "all" ? null : sql`${today} - ${range - 1}::int`;
  const inRange = since ? sql`and day >= ${since}` : sql``;
  const payments = sql`payment_daily_totals
    where merchant_id = ${merchantId} and customer_id = '' and currency = ${currency} ${inRange}`;
  const refunds = sql`refund_daily_totals where merchant_id = ${merchantId} and currency = ${currency} ${inRange}`;
  // Fees and disputes from the balance transactions' daily totals (by the day each posted): `dispute` withdrew
  // its amount (negative) with its fee, `dispute_won` gave the amount back; inquiries post nothing.
  const moved = sql`balance_transaction_daily_totals where merchant_id = ${merchantId} and currency = ${currency}
    ${inRange}`;
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
      sql`select status, sum(count) as count, sum(volume)::text as volume
          from ${payments} group by status`,
    ),
    selectRows<{
      gross: string;
      refunded: string;
      disputed: string;
      dispute_fees: string;
      payment_fees: string;
      net: string;
      refunds: number | string;
    }>(
      db,
      sql`select gross::text as gross, refunded::text as refunded, disputed::text as disputed,
                 dispute_fees::text as dispute_fees, (gross - refunded - disputed)::text as net, refunds,
                 payment_fees::text as payment_fees
          from (select gross, refunded, refunds, -disputes_amount as disputed, dispute_fees, payment_fees
          from (select
            coalesce((select sum(volume) from ${payments} and status = 'completed'), 0) as gross,
            coalesce((select sum(amount) from ${refunds}), 0) as refunded,
            coalesce((select sum(count) from ${refunds}), 0) as refunds,
            coalesce((select sum(amount) from ${moved} and type in ('dispute', 'dispute_won')), 0)
              as disputes_amount,
            coalesce((select sum(fee) from ${moved} and type = 'dispute'), 0) as dispute_fees,
            coalesce((select sum(fee) from ${moved} and type = 'payment'), 0) as payment_fees) sums) figures`,
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
                 coalesce(p.volume, 0)::text as volume,
                 coalesce(r.count, 0) as refunds, coalesce(r.amount, 0)::text as refunded
          from generate_series(${first}, ${today}, ${sql.raw(`interval '1 ${bucket}'`)}) as b(day)
          left join (select ${bucketOf(sql`day`)} as day, sum(count) as count, sum(volume) as volume
                     from ${payments} and status = 'completed' group by 1) p on p.day = b.day
          left join (select ${bucketOf(sql`day`)} as day, sum(count) as count, sum(amount) as amount
                     from ${refunds} group by 1) r on r.day = b.day
          order by b.day`,
    ),
  ]);
  const money = (amount: string | null | undefined) => inMinorUnits(amount ?? "0", currency);
  const byStatus = Object.fromEntries(
    PAYMENT_STATUSES.map((status) => [status, { count: 0, volume: money("0") }]),
  ) as StatusTotals;
  for (const row of byStatusRows)
    byStatus[row.status] = { count: Number(row.count), volume: money(row.volume) };
  return {
    currency,
    byStatus,
    volume: {
      gross: money(volume?.gross),
      refunded: money(volume?.refunded),
      disputed: money(volume?.disputed),
      paymentFees: money(volume?.payment_fees),
      disputeFees: money(volume?.dispute_fees),
      net: money(volume?.net),
      refunds: Number(volume?.refunds ?? 0),
    },
    series: seriesRows.map((row) => ({
      day: row.day,
      count: Number(row.count),
      volume: money(row.volume),
      refunds: Number(row.refunds),
      refunded: money(row.refunded),
    })),
    bucket,
  };
}
