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

/**
 * A page of a newest-first list (`created_at desc, id desc`) without scanning what comes before it: the daily
 * counts (newest day first) say which day the page starts in, an index read skips to its place in that day (at
 * most a day of rows), and the page is read from there by keyset. Page 50,000 costs about what page 1 does.
 * The payments and the refunds lists (lib/payments/list.ts, lib/refunds/queries.ts) read their pages here.
 */
export async function readPageByDays<Row>(
  db: Executor,
  table: "payments" | "refunds",
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
