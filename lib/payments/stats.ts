import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/db/enums";

export type StatusTotals = Record<PaymentStatus, { count: number; volume: string }>;
export type DailyTotals = Array<{ day: string; count: number; volume: string }>;

/** Count and volume per status, and per day for the last 30 days (UTC), for the Overview page. */
export async function getPaymentStats(
  db: Executor,
  merchantId: number,
): Promise<{ byStatus: StatusTotals; daily: DailyTotals }> {
  const [byStatusRows, dailyRows] = await Promise.all([
    selectRows<{ status: PaymentStatus; count: number | string; volume: string | null }>(
      db,
      sql`select status, count(*) as count, sum(amount)::numeric(16,2)::text as volume
          from payments where merchant_id = ${merchantId} group by status`,
    ),
    selectRows<{ day: string; count: number | string; volume: string | null }>(
      db,
      sql`select to_char(d.day, 'YYYY-MM-DD') as day, count(p.id) as count, coalesce(sum(p.amount), 0)::numeric(16,2)::text as volume
          from generate_series((now() at time zone 'utc')::date - 29, (now() at time zone 'utc')::date, interval '1 day') as d(day)
          left join payments p on p.merchant_id = ${merchantId}
            and p.created_at >= d.day at time zone 'utc' and p.created_at < (d.day + interval '1 day') at time zone 'utc'
          group by d.day order by d.day`,
    ),
  ]);
  const byStatus = Object.fromEntries(
    PAYMENT_STATUSES.map((status) => [status, { count: 0, volume: "0.00" }]),
  ) as StatusTotals;
  for (const row of byStatusRows)
    byStatus[row.status] = { count: Number(row.count), volume: row.volume ?? "0.00" };
  return {
    byStatus,
    daily: dailyRows.map((row) => ({ day: row.day, count: Number(row.count), volume: row.volume ?? "0.00" })),
  };
}
