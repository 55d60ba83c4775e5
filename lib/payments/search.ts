import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { hasFilters, type PaymentFilters } from "./filters";
import { listPayments, type PaymentPage } from "./queries";
import { toPaymentListItem } from "./resource";

function filterConditions(merchantId: number, filters: PaymentFilters): SQL {
  const conditions = [sql`merchant_id = ${merchantId}`];
  if (filters.status) conditions.push(sql`status = ${filters.status}`);
  if (filters.q) conditions.push(sql`external_id = ${filters.q}`);
  if (filters.from) conditions.push(sql`created_at >= ${filters.from}::date`);
  if (filters.to) conditions.push(sql`created_at < ${filters.to}::date + 1`);
  return sql.join(conditions, sql` and `);
}

/**
 * The dashboard's payment list. Unfiltered, it is the API's sequence-range list (any page in one index range);
 * filtered, an indexed query with its own count.
 */
export async function searchPayments(
  db: Executor,
  merchantId: number,
  filters: PaymentFilters,
): Promise<PaymentPage> {
  if (!hasFilters(filters)) return listPayments(db, merchantId, filters.page, filters.pageSize);
  const where = filterConditions(merchantId, filters);
  const rows = await selectRows<{
    id: number | string | null;
    external_id: string | null;
    status: string;
    amount: string;
    created_at: Date;
    total: number | string;
  }>(
    db,
    sql`
      with matching as (select count(*) as total from payments where ${where})
      select p.id, p.external_id, p.status, p.amount, p.created_at, matching.total
      from matching
      left join lateral (
        select id, external_id, status, amount, created_at from payments
        where ${where}
        order by created_at desc, id desc
        limit ${filters.pageSize} offset ${(filters.page - 1) * filters.pageSize}
      ) p on true`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    items: rows.filter((row) => row.id !== null).map((row) => toPaymentListItem({ ...row, id: row.id! })),
  };
}

export type CsvBatch = Array<{
  id: number | string;
  external_id: string | null;
  customer_id: string | null;
  status: string;
  amount: string;
  created_at: Date | string;
  settled_at: Date | string | null;
}>;

/**
 * Everything matching the filters, newest first, in keyset batches: memory stays flat however many rows
 * there are, and no batch re-scans the ones before it.
 */
export async function* exportPayments(
  db: Executor,
  merchantId: number,
  filters: PaymentFilters,
  batchSize = 5000,
): AsyncGenerator<CsvBatch> {
  const where = filterConditions(merchantId, filters);
  let cursor: { createdAt: string; id: number } | undefined;
  for (;;) {
    const after = cursor
      ? sql`and (created_at, id) < (${cursor.createdAt}::timestamptz, ${cursor.id})`
      : sql``;
    const rows = await selectRows<CsvBatch[number]>(
      db,
      sql`select id, external_id, customer_id, status, amount, created_at, settled_at from payments
          where ${where} ${after}
          order by created_at desc, id desc
          limit ${batchSize}`,
    );
    if (rows.length === 0) return;
    yield rows;
    const last = rows.at(-1)!;
    cursor = { createdAt: new Date(last.created_at).toISOString(), id: Number(last.id) };
    if (rows.length < batchSize) return;
  }
}
