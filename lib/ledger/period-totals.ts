import "server-only";
import { sql, type SQL } from "drizzle-orm";

// The reports' totals over any stretch of time (DESIGN.md, "Time zone"): whole UTC days from the daily totals,
// the part-days at either end from the quarter-hour totals, so a month in any zone reads about as many rows as
// a month in UTC. Both tables hold, per type, count, amount, fee and net by creation, and `available`: the net
// of what becomes available in that day or quarter hour (db/functions/ledger.sql, count_balance_transaction).

const DAY_MS = 86_400_000;
const floorDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
const ceilDay = (time: number) => Math.ceil(time / DAY_MS) * DAY_MS;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);
const isoInstant = (time: number) => new Date(time).toISOString();

/** Columns every row of totalsRows has. */
const COLUMNS = sql`type, count, amount, fee, net, available`;

/**
 * The totals rows of one merchant's currency over [from, to) (instants on quarter hours; `to` null: for ever),
 * as one SQL union of up to three range reads: the part-day after `from`, the whole days, the part-day before
 * `to`.
 */
export function totalsRows(merchantId: number, currency: string, from: Date | null, to: Date | null): SQL {
  const start = from?.getTime() ?? null;
  const end = to?.getTime() ?? null;
  const firstWholeDay = start === null ? null : ceilDay(start);
  const lastWholeDayEnd = end === null ? null : floorDay(end);
  const scope = sql`merchant_id = ${merchantId} and currency = ${currency}`;
  const parts: SQL[] = [];
  const quarters = (partFrom: number | null, partTo: number | null) => {
    if (partFrom !== null && partTo !== null && partFrom >= partTo) return;
    parts.push(sql`select ${COLUMNS} from balance_transaction_quarter_hour_totals where ${scope}
      ${partFrom === null ? sql`` : sql`and quarter_hour >= ${isoInstant(partFrom)}`}
      ${partTo === null ? sql`` : sql`and quarter_hour < ${isoInstant(partTo)}`}`);
  };
  // Before the first whole day (none when `from` is a UTC midnight, or when the stretch ends first).
  if (start !== null && firstWholeDay !== start)
    quarters(start, end === null ? firstWholeDay : Math.min(firstWholeDay!, end));
  const daysFrom = firstWholeDay;
  const daysTo = lastWholeDayEnd;
  if (daysFrom === null || daysTo === null || daysFrom < daysTo)
    parts.push(sql`select ${COLUMNS} from balance_transaction_daily_totals where ${scope}
      ${daysFrom === null ? sql`` : sql`and day >= ${isoDate(daysFrom)}::date`}
      ${daysTo === null ? sql`` : sql`and day < ${isoDate(daysTo)}::date`}`);
  // After the last whole day.
  if (end !== null && lastWholeDayEnd !== end)
    quarters(start === null ? lastWholeDayEnd : Math.max(lastWholeDayEnd!, firstWholeDay!), end);
  if (parts.length === 0)
    parts.push(sql`select ${COLUMNS} from balance_transaction_daily_totals where false`);
  return sql.join(parts, sql` union all `);
}
