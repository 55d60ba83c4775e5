import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { isoDate } from "./timestamps";

/** How many rows of a list were created on a UTC day (`YYYY-MM-DD`), from a rollup kept by its writers. */
export type DayCount = { day: string; count: number };

export const allOf = (conditions: SQL[]) => sql.join(conditions, sql` and `);

export const DAY_MS = 86_400_000;
export const dayOf = (instant: Date) => isoDate(instant);
const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** `created_at` within a UTC day. */
export const dayConditions = (day: string) => [
  sql`created_at >= ${startOf(day).toISOString()}::timestamptz`,
  sql`created_at < ${new Date(startOf(day).getTime() + DAY_MS).toISOString()}::timestamptz`,
];

/** A rollup's days within `from` (inclusive) and `to` (exclusive), whole or cut through. */
export const rollupDayConditions = ({ from, to }: { from?: Date; to?: Date }) => [
  ...(from ? [sql`day >= ${dayOf(from)}::date`] : []),
  ...(to ? [sql`day <= ${dayOf(new Date(to.getTime() - 1))}::date`] : []),
];

type ListTable = "payments" | "refunds" | "balance_transactions";

/** A rollup's counts per day (its rows matching `conditions` summed), newest day first, empty days left out. */
export async function rollupDayCounts(
  db: Executor,
  rollup: "payment_daily_totals" | "refund_daily_counts" | "balance_transaction_daily_totals",
  conditions: SQL[],
): Promise<DayCount[]> {
  const rows = await selectRows<{ day: string; count: number | string }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, sum(count) as count from ${sql.identifier(rollup)}
        where ${allOf(conditions)} group by day having sum(count) > 0 order by day desc`,
  );
  return rows.map((row) => ({ day: row.day, count: Number(row.count) }));
}

/**
 * A rollup's daily counts within `from`..`to`, with the first and last days counted again on the list's own rows
 * (`table` where `conditions`) when the range starts or ends inside them; the days left without a row dropped.
 */
export async function countCutDaysExactly(
  db: Executor,
  table: ListTable,
  conditions: SQL[],
  counts: DayCount[],
  { from, to }: { from?: Date; to?: Date },
): Promise<DayCount[]> {
  const cut = [from, to].filter(
    (instant): instant is Date => instant !== undefined && instant.getTime() % DAY_MS !== 0,
  );
  for (const day of new Set(
    cut.map((instant) => dayOf(instant === to ? new Date(instant.getTime() - 1) : instant)),
  )) {
    const entry = counts.find((each) => each.day === day);
    if (!entry) continue;
    const [exact] = await selectRows<{ count: number | string }>(
      db,
      sql`select count(*) as count from ${sql.identifier(table)} where ${allOf([...conditions, ...dayConditions(day)])}`,
    );
    entry.count = Number(exact!.count);
  }
  return counts.filter((entry) => entry.count > 0);
}

/**
 * A page of a newest-first list narrowed to a few rows (a payment's refunds, a payout's transactions, an
 * external id's payments): read by offset and counted on the rows themselves, both at once.
 */
export async function readSmallPage<Row>(
  db: Executor,
  table: ListTable,
  conditions: SQL[],
  page: { offset: number; limit: number },
  columns: SQL,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    selectRows<Row>(
      db,
      sql`select ${columns} from ${sql.identifier(table)} where ${allOf(conditions)}
          order by created_at desc, id desc offset ${page.offset} limit ${page.limit}`,
    ),
    selectRows<{ total: number | string }>(
      db,
      sql`select count(*) as total from ${sql.identifier(table)} where ${allOf(conditions)}`,
    ),
  ]);
  return { rows, total: Number(count!.total) };
}

/**
 * A page of a newest-first list (`created_at desc, id desc`) without scanning what comes before it: the daily
 * counts (newest day first) say which day the page starts in, an index read skips to its place in that day (at
 * most a day of rows), and the page is read from there by keyset. Page 50,000 costs about what page 1 does.
 * The payments, refunds and balance transactions lists (lib/payments/list.ts, lib/refunds/queries.ts,
 * lib/ledger/balance-transactions.ts) read their pages here.
 */
export async function readPageByDays<Row>(
  db: Executor,
  table: ListTable,
  conditions: SQL[],
  days: DayCount[],
  page: { offset: number; limit: number },
  columns: SQL,
): Promise<Row[]> {
  let before = 0;
  const start = days.find((day) => {
    if (before + day.count > page.offset) return true;
    before += day.count;
    return false;
  });
  if (!start) return [];
  const ordered = sql`order by created_at desc, id desc`;
  return selectRows<Row>(
    db,
    sql`with boundary as (
          select created_at as first_at, id as first_id from ${sql.identifier(table)}
          where ${allOf([...conditions, ...dayConditions(start.day)])}
          ${ordered} offset ${page.offset - before} limit 1
        )
        -- Lateral: the boundary reaches the page's index scan as a key, not as a filter over every row.
        select page.* from boundary, lateral (
          select ${columns} from ${sql.identifier(table)}
          where ${allOf(conditions)} and (created_at, id) <= (first_at, first_id)
          ${ordered} limit ${page.limit}
        ) page`,
  );
}
