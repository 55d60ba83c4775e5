import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { inMinorUnits } from "@/lib/money/amount";
import { allOf } from "@/lib/platform/day-count-pages";
import { newestFirstBatches } from "@/lib/platform/newest-first-batches";
import { hasFilters, toPaymentFilter, type PaymentFilters } from "./filters";
import { listFilteredPayments, paymentFilterConditions, type PaymentFilter } from "./list";
import { listPaymentsQuery } from "./queries";
import { toPaymentListItem, type PaymentRow } from "./resource";
import type { PaymentListItem } from "./schemas";

/** Escapes LIKE's wildcards so a search for "50%_off" means those characters. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A customer id prefix matches at most this many of the merchant's customer ids (the first by id): `cus_`
 * would otherwise name every customer, and the search would read all their payments.
 */
export const SEARCH_CUSTOMER_LIMIT = 100;

/** A case-insensitive external id prefix, through `payments_merchant_external_id_prefix_idx` (text_pattern_ops). */
function externalIdPrefix(term: string): SQL {
  return sql`(lower(external_id) ~>=~ lower(${term}) and lower(external_id) ~<=~ (lower(${term}) || chr(1114111))
    and lower(external_id) like (lower(${escapeLike(term)}) || '%'))`;
}

/** The customer ids a term names: itself, and the first SEARCH_CUSTOMER_LIMIT longer ids it prefixes. */
function customerIdsNamed(merchantId: number, term: string): SQL {
  return sql`select ${term}::text as searched_id
    union
    (select customer_id from customers
     where merchant_id = ${merchantId} and customer_id ~>~ ${term}
       and customer_id ~<=~ (${term} || chr(1114111)) and customer_id like (${escapeLike(term)} || '%')
     order by customer_id using ~<~ limit ${SEARCH_CUSTOMER_LIMIT})`;
}

/**
 * The search box as a condition (the CSV's keyset batches): a payment id, an external id by case-insensitive
 * prefix, or a customer id by prefix (as typed: ids are case-sensitive).
 */
function searchCondition(merchantId: number, term: string): SQL {
  const branches = [externalIdPrefix(term), sql`customer_id in (${customerIdsNamed(merchantId, term)})`];
  if (/^\d{1,15}$/.test(term)) branches.push(sql`id = ${Number(term)}`);
  return sql`(${sql.join(branches, sql` or `)})`;
}

/**
 * The search's matches as a union of index reads, each in the list's order and cut at `limit`: an OR of the
 * branches would make PostgreSQL gather and sort every match (a big customer's 100,000 payments) for one page.
 * A page needs the newest `limit` of each (`ordered`); a count needs any `limit` of them.
 */
function searchMatches(
  merchantId: number,
  filters: PaymentFilters,
  columns: SQL,
  limit: number,
  ordered: boolean,
): SQL {
  const term = filters.q!;
  const where = allOf(paymentFilterConditions(merchantId, toPaymentFilter(filters)));
  const cut = ordered ? sql`order by created_at desc, id desc limit ${limit}` : sql`limit ${limit}`;
  const branches = [
    sql`(select ${columns} from payments where ${where} and ${externalIdPrefix(term)} ${cut})`,
    sql`(select named.* from (${customerIdsNamed(merchantId, term)}) customer
         cross join lateral (
           select ${columns} from payments where ${where} and customer_id = customer.searched_id ${cut}
         ) named
         ${cut})`,
  ];
  if (/^\d{1,15}$/.test(term))
    branches.push(sql`(select ${columns} from payments where ${where} and id = ${Number(term)})`);
  return sql.join(branches, sql` union `);
}

/**
 * How many payments a search finds, past SEARCH_COUNT_LIMIT only as "more". With the search alone, the named
 * customers' payments come from the customers rollup (a big customer's million is one row), and the other
 * branches count only the matches that name none of those customers; with other filters, each branch counts.
 */
function searchCount(merchantId: number, filters: PaymentFilters): SQL {
  const cap = SEARCH_COUNT_LIMIT + 1;
  if (filters.status || filters.refund || filters.from || filters.to)
    return sql`select count(*) as total from (
      select id from (${searchMatches(merchantId, filters, sql`id`, cap, false)}) ids limit ${cap}
    ) capped`;
  const term = filters.q!;
  const named = customerIdsNamed(merchantId, term);
  const unnamed = sql`merchant_id = ${merchantId} and (customer_id is null or customer_id not in (${named}))`;
  const byId = /^\d{1,15}$/.test(term)
    ? sql`+ (select count(*) from payments where ${unnamed} and id = ${Number(term)}
             and not coalesce(${externalIdPrefix(term)}, false))`
    : sql``;
  return sql`select
    (select coalesce(sum(payments_count), 0) from customers where merchant_id = ${merchantId} and customer_id in (${named}))
    + (select count(*) from (select 1 from payments where ${unnamed} and ${externalIdPrefix(term)} limit ${cap}) prefixed)
    ${byId} as total`;
}

/**
 * The one customer a search names when it finds nothing else (the usual search: a customer's id). Its pages
 * are then the customer filter's, counted by day and found by seeking, exact at any depth.
 */
async function onlyCustomerNamed(
  db: Executor,
  merchantId: number,
  term: string,
): Promise<string | undefined> {
  const named = customerIdsNamed(merchantId, term);
  const unnamed = sql`merchant_id = ${merchantId} and (customer_id is null or customer_id not in (${named}))`;
  const byId = /^\d{1,15}$/.test(term) ? sql`or id = ${Number(term)}` : sql``;
  const rows = await selectRows<{ customer_id: string }>(
    db,
    sql`select customer_id from customers
        where merchant_id = ${merchantId} and customer_id in (${named}) and payments_count > 0
          and not exists (select 1 from payments where ${unnamed} and ${externalIdPrefix(term)})
          and not exists (select 1 from payments where ${unnamed} and (false ${byId}))
        limit 2`,
  );
  return rows.length === 1 ? rows[0]!.customer_id : undefined;
}

/** The dashboard's filters as conditions: the list's (one code for the API, the dashboard and the CSV) and the search box. */
function filterConditions(merchantId: number, filters: PaymentFilters): SQL {
  const conditions = paymentFilterConditions(merchantId, toPaymentFilter(filters));
  if (filters.q) conditions.push(searchCondition(merchantId, filters.q));
  return allOf(conditions);
}

/** A row of the dashboard's list: the API's list item plus the customer and the refunded sum. */
export type DashboardPayment = PaymentListItem & { customer_id: string | null; amount_refunded: string };

/** `total` is exact, except for a search that matches more than SEARCH_COUNT_LIMIT (then `totalIsCapped`). */
export type DashboardPaymentPage = { items: DashboardPayment[]; total: number; totalIsCapped: boolean };

/** A search counts at most this many matches ("10,000+"), so a one-letter prefix stays cheap. */
export const SEARCH_COUNT_LIMIT = 10_000;

type DashboardRow = PaymentRow & {
  id: number | string | null;
  customer_id: string | null;
  amount_refunded: string;
  total: number | string;
};

function toPage(rows: DashboardRow[], countLimit?: number): DashboardPaymentPage {
  const total = Number(rows[0]?.total ?? 0);
  const items = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      ...toPaymentListItem({ ...row, id: row.id }),
      customer_id: row.customer_id,
      amount_refunded: inMinorUnits(row.amount_refunded, row.currency),
    }));
  const totalIsCapped = countLimit !== undefined && total > countLimit;
  return { items, total: totalIsCapped ? countLimit : total, totalIsCapped };
}

/** A page of the payments matching a list filter (a customer's page, the Payments page without a search). */
export async function listDashboardPayments(
  db: Executor,
  merchantId: number,
  filter: PaymentFilter,
  offset: number,
  limit: number,
): Promise<DashboardPaymentPage> {
  const { rows, total } = await listFilteredPayments<DashboardRow>(
    db,
    merchantId,
    filter,
    { offset, limit },
    sql`id, external_id, customer_id, status, amount, currency, amount_refunded, created_at`,
  );
  return { ...toPage(rows), total, totalIsCapped: false };
}

/**
 * The dashboard's payment list. Unfiltered, it walks the per-merchant sequence like the API (any page is one
 * index range); filtered, an indexed query with its own count, capped for searches.
 */
export async function searchPayments(
  db: Executor,
  merchantId: number,
  filters: PaymentFilters,
): Promise<DashboardPaymentPage> {
  const offset = (filters.page - 1) * filters.pageSize;
  if (!hasFilters(filters)) {
    const rows = await selectRows<DashboardRow>(
      db,
      listPaymentsQuery(merchantId, offset, filters.pageSize, true),
    );
    return toPage(rows);
  }
  // Status, refund state and dates: the daily totals count them and find any page (lib/payments/list.ts).
  if (!filters.q)
    return listDashboardPayments(db, merchantId, toPaymentFilter(filters), offset, filters.pageSize);
  const customerId = await onlyCustomerNamed(db, merchantId, filters.q);
  if (customerId !== undefined)
    return listDashboardPayments(
      db,
      merchantId,
      { ...toPaymentFilter(filters), customerId },
      offset,
      filters.pageSize,
    );
  // The page is chosen on (created_at, id), which the indexes hold, and only its rows are read from the table:
  // the last page the capped count offers (offset 9,950) reads no other payment's row.
  const rows = await selectRows<DashboardRow>(
    db,
    sql`
      with matching as (${searchCount(merchantId, filters)})
      select p.id, p.external_id, p.customer_id, p.status, p.amount, p.currency, p.amount_refunded, p.created_at,
             matching.total
      from matching
      left join lateral (
        select payments.* from (
          select id, created_at
          from (${searchMatches(merchantId, filters, sql`id, created_at`, offset + filters.pageSize, true)}) matches
          order by created_at desc, id desc
          limit ${filters.pageSize} offset ${offset}
        ) page
        join payments on payments.merchant_id = ${merchantId} and payments.id = page.id
        order by page.created_at desc, page.id desc
      ) p on true`,
  );
  return toPage(rows, SEARCH_COUNT_LIMIT);
}

export type CsvBatch = Array<{
  id: number | string;
  external_id: string | null;
  customer_id: string | null;
  status: string;
  amount: string;
  currency: string;
  amount_refunded: string;
  fee: string | null;
  net: string | null;
  created_at: Date | string;
  settled_at: Date | string | null;
  failure_code: string | null;
  failure_reason: string | null;
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
): AsyncGenerator<CsvBatch, void> {
  const batches = newestFirstBatches<CsvBatch[number]>(
    db,
    {
      columns:
        sql.raw(`id, external_id, customer_id, status, amount, currency, amount_refunded, fee, net, created_at,
                        settled_at, failure_code, failure_reason`),
      from: "payments",
      where: filterConditions(merchantId, filters),
    },
    batchSize,
  );
  // Each amount in its currency's minor units, as the API writes it.
  for await (const rows of batches)
    yield rows.map((row) => ({
      ...row,
      amount: inMinorUnits(row.amount, row.currency),
      amount_refunded: inMinorUnits(row.amount_refunded, row.currency),
      fee: row.fee === null ? null : inMinorUnits(row.fee, row.currency),
      net: row.net === null ? null : inMinorUnits(row.net, row.currency),
    }));
}
