import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { PaymentStatus, RefundState } from "@/db/enums";
import {
  countCutDaysExactly,
  readPageByDays,
  readSmallPage,
  rollupDayConditions,
  rollupDayCounts,
  type DayCount,
} from "@/lib/platform/day-count-pages";
import { isoTimestamp } from "@/lib/platform/timestamps";

/**
 * What a list of payments can be narrowed to: the API's filters, the dashboard's and the CSV export's. `from`
 * and `to` are instants, `from` inclusive and `to` exclusive (a date filter's day is turned into them).
 */
export type PaymentFilter = {
  status?: PaymentStatus;
  externalId?: string;
  customerId?: string;
  refundStatus?: RefundState;
  /** ISO 4217, upper case. */
  currency?: string;
  from?: Date;
  to?: Date;
};

export function hasPaymentFilter(filter: PaymentFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined);
}

const REFUND_STATE_CONDITIONS: Record<RefundState, SQL> = {
  none: sql`amount_refunded = 0`,
  partial: sql`amount_refunded > 0 and amount_refunded < amount`,
  full: sql`amount_refunded > 0 and amount_refunded >= amount`,
};

/** The filter as conditions on `payments`; each narrows along an index the list can use. */
export function paymentFilterConditions(merchantId: number, filter: PaymentFilter): SQL[] {
  const conditions = [sql`merchant_id = ${merchantId}`];
  if (filter.status) conditions.push(sql`status = ${filter.status}`);
  // Exact, but through the case-insensitive index the dashboard's search uses (its lower() narrows first).
  if (filter.externalId !== undefined)
    conditions.push(
      sql`lower(external_id) = lower(${filter.externalId}) and external_id = ${filter.externalId}`,
    );
  if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`);
  if (filter.refundStatus) conditions.push(REFUND_STATE_CONDITIONS[filter.refundStatus]);
  if (filter.currency) conditions.push(sql`currency = ${filter.currency}`);
  if (filter.from) conditions.push(sql`created_at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`created_at < ${filter.to.toISOString()}::timestamptz`);
  return conditions;
}

/**
 * How many payments match, per creation day (UTC), newest day first: from the daily totals (kept by the
 * statements that write payments, per merchant and per customer) for whole days; a day the date range cuts
 * through is counted on its own rows. An external id filter is not in the totals: it matches a handful of
 * rows, counted directly.
 */
async function countByDay(db: Executor, merchantId: number, filter: PaymentFilter): Promise<DayCount[]> {
  const conditions = [
    sql`merchant_id = ${merchantId}`,
    sql`customer_id = ${filter.customerId ?? ""}`,
    ...(filter.status ? [sql`status = ${filter.status}`] : []),
    ...(filter.refundStatus ? [sql`refund_state = ${filter.refundStatus}`] : []),
    ...(filter.currency ? [sql`currency = ${filter.currency}`] : []),
    ...rollupDayConditions(filter),
  ];
  const counts = await rollupDayCounts(db, "payment_daily_totals", conditions);
  return countCutDaysExactly(db, "payments", paymentFilterConditions(merchantId, filter), counts, filter);
}

export type FilteredPage<Row> = { rows: Row[]; total: number };

/**
 * A page of the payments matching `filter`, newest first, and how many match, without scanning what comes
 * before the page (readPageByDays), from the daily totals.
 */
export async function listFilteredPayments<Row>(
  db: Executor,
  merchantId: number,
  filter: PaymentFilter,
  page: { offset: number; limit: number },
  columns: SQL,
): Promise<FilteredPage<Row>> {
  const conditions = paymentFilterConditions(merchantId, filter);
  // An external id matches a handful of rows: not in the daily totals, counted directly.
  if (filter.externalId !== undefined) return readSmallPage<Row>(db, "payments", conditions, page, columns);
  const days = await countByDay(db, merchantId, filter);
  const total = days.reduce((sum, day) => sum + day.count, 0);
  return { rows: await readPageByDays<Row>(db, "payments", conditions, days, page, columns), total };
}

/** The keyset position after a row: where the next batch of an export starts. */
export function positionAfter(row: { created_at: Date | string; id: number | string }) {
  return sql`(created_at, id) < (${isoTimestamp(row.created_at)}::timestamptz, ${Number(row.id)})`;
}
