import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import type { RefundStatus } from "@/db/enums";
import { readPageByDays, readSmallPage, rollupDayCounts } from "@/lib/platform/day-count-pages";
import { REFUND_COLUMNS, toRefundResource, type RefundRow } from "./resource";
import type { RefundResource } from "./schemas";

/** One of the merchant's refunds by id; undefined when it has none with the id (see refuseUnowned). */
export async function findRefund(
  db: Executor,
  merchantId: number,
  refundId: number,
): Promise<RefundResource | undefined> {
  const [row] = await selectRows<RefundRow>(
    db,
    sql`select ${REFUND_COLUMNS} from refunds where merchant_id = ${merchantId} and id = ${refundId}`,
  );
  return row && toRefundResource(row);
}

/**
 * One page of a payment of the merchant's refunds, newest first, with the total; undefined when the merchant
 * has no such payment. A payment has few refunds (each takes part of its amount), so an offset is cheap here.
 */
export async function listPaymentRefunds(
  db: Executor,
  merchantId: number,
  paymentId: number,
  page: number,
  perPage: number,
): Promise<{ items: RefundResource[]; total: number } | undefined> {
  const rows = await selectRows<Partial<RefundRow> & { total: number | string }>(
    db,
    sql`select r.*,
          (select count(*) from refunds where merchant_id = p.merchant_id and payment_id = p.id) as total
        from payments p
        left join lateral (
          select ${REFUND_COLUMNS} from refunds where merchant_id = p.merchant_id and payment_id = p.id
          order by id desc offset ${(page - 1) * perPage} limit ${perPage}
        ) r on true
        where p.merchant_id = ${merchantId} and p.id = ${paymentId}`,
  );
  const [first] = rows;
  if (!first) return undefined;
  return {
    total: Number(first.total),
    items: rows.filter((row) => row.id != null).map((row) => toRefundResource(row as RefundRow)),
  };
}

export type RefundFilter = { status?: RefundStatus; paymentId?: number; customerId?: string };

/**
 * The merchant's refunds, newest first, a page at a time (`GET /api/refunds`, the dashboard's Refunds page),
 * by status, payment or customer. Counted from the daily counts and paged by seeking (readPageByDays), as the
 * payments are: page 1 and page 50,000 of 500,000 refunds cost about one payment's page. A payment's refunds
 * are few (each takes part of its amount): counted and paged on their own rows.
 */
export async function listMerchantRefunds(
  db: Executor,
  merchantId: number,
  filter: RefundFilter,
  page: number,
  perPage: number,
): Promise<{ items: RefundResource[]; total: number }> {
  const conditions = [
    sql`merchant_id = ${merchantId}`,
    ...(filter.status ? [sql`status = ${filter.status}`] : []),
    ...(filter.paymentId !== undefined ? [sql`payment_id = ${filter.paymentId}`] : []),
    ...(filter.customerId !== undefined ? [sql`customer_id = ${filter.customerId}`] : []),
  ];
  const range = { offset: (page - 1) * perPage, limit: perPage };
  if (filter.paymentId !== undefined) {
    const { rows, total } = await readSmallPage<RefundRow>(db, "refunds", conditions, range, REFUND_COLUMNS);
    return { items: rows.map(toRefundResource), total };
  }
  const days = await rollupDayCounts(db, "refund_daily_counts", [
    sql`merchant_id = ${merchantId}`,
    sql`customer_id = ${filter.customerId ?? ""}`,
    ...(filter.status ? [sql`status = ${filter.status}`] : []),
  ]);
  const rows = await readPageByDays<RefundRow>(db, "refunds", conditions, days, range, REFUND_COLUMNS);
  return {
    items: rows.map(toRefundResource),
    total: days.reduce((sum, day) => sum + day.count, 0),
  };
}
