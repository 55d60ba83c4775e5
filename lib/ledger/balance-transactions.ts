import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { BALANCE_TRANSACTION_STATUSES, BALANCE_TRANSACTION_TYPES } from "@/db/enums";
import { inMinorUnits } from "@/lib/money/amount";
import { currencyField } from "@/lib/money/currencies";
import {
  countCutDaysExactly,
  readPageByDays,
  readSmallPage,
  rollupDayConditions,
  rollupDayCounts,
} from "@/lib/platform/day-count-pages";
import {
  createdBound,
  createdRangeInOrder,
  pageQuerySchema,
  queryChoice,
  queryId,
} from "@/lib/platform/list-query";
import { newestFirstBatches } from "@/lib/platform/newest-first-batches";
import { timeZoneField } from "@/lib/platform/time-zones";
import { isoTimestamp } from "@/lib/platform/timestamps";

const money = z.string().describe('Signed, in its currency\'s minor units: "9.41", "-2.00", "1500" JPY.');

/** A balance transaction as the API returns it (DESIGN.md, "Balance transactions"), in this key order. */
export const balanceTransactionSchema = z.object({
  id: z.number().int(),
  type: z.enum(BALANCE_TRANSACTION_TYPES),
  source_id: z.number().int().describe("The payment, refund, payout or dispute that moved the money."),
  payment_id: z
    .number()
    .int()
    .nullable()
    .describe(
      "The payment it concerns: itself, a refund's or a dispute's; null for payouts and adjustments.",
    ),
  external_id: z.string().nullable().describe("That payment's external_id: the merchant's order."),
  customer_id: z.string().nullable().describe("That payment's customer_id."),
  currency: z.string().describe('ISO 4217, upper case: "EUR".'),
  amount: money,
  fee: money,
  net: money.describe("amount − fee: what it added to (or, negative, took from) the balance."),
  status: z.enum(BALANCE_TRANSACTION_STATUSES),
  available_on: z.string().describe("When it is (or became) available, UTC."),
  payout_id: z.number().int().nullable().describe("The payout that carried it, once one has."),
  created_at: z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`."),
});
export type BalanceTransaction = z.infer<typeof balanceTransactionSchema>;

/** `GET /api/balance-transactions`: the page, and `type`, `currency`, `payout_id`, `created_from/to`. */
export const listBalanceTransactionsQuerySchema = pageQuerySchema
  .extend({
    type: queryChoice("type", BALANCE_TRANSACTION_TYPES).describe("Only this type."),
    currency: currencyField().describe("Only transactions in this currency (ISO 4217, any case)."),
    payout_id: queryId("payout_id", { prefix: "po_" }).describe(
      "Only what this payout carried: they add up to its amount. `12` or `po_12`.",
    ),
    created_from: createdBound("created_from", "from").describe("ISO 8601 date or date-time, inclusive."),
    created_to: createdBound("created_to", "to").describe(
      "ISO 8601 date or date-time, inclusive (a date runs to its end).",
    ),
    timezone: timeZoneField().describe(
      "The IANA zone a date alone in created_from or created_to is a day of; the merchant's report time zone when absent.",
    ),
  })
  .superRefine(createdRangeInOrder);
export type BalanceTransactionFilter = Partial<z.output<typeof listBalanceTransactionsQuerySchema>> & {
  page: number;
  perPage: number;
};

type Row = {
  merchant_id: number | string;
  id: number | string;
  type: BalanceTransaction["type"];
  source_id: number | string;
  payment_id: number | string | null;
  external_id: string | null;
  customer_id: string | null;
  currency: string;
  amount: string;
  fee: string;
  net: string;
  status: BalanceTransaction["status"];
  available_on: Date | string;
  payout_id: number | string | null;
  created_at: Date | string;
};

/**
 * The columns every read of balance transactions selects. The payment each concerns, its order and its
 * customer were written with it when it was posted (migration 0056), so a line of a CSV of millions costs no
 * lookup.
 */
const COLUMNS = sql.raw(
  "merchant_id, id, type, source_id, payment_id, external_id, customer_id, currency, amount, fee, net, status, available_on, payout_id, created_at",
);

function toBalanceTransaction(row: Row): BalanceTransaction {
  return {
    id: Number(row.id),
    type: row.type,
    source_id: Number(row.source_id),
    payment_id: row.payment_id === null ? null : Number(row.payment_id),
    external_id: row.external_id,
    customer_id: row.customer_id,
    currency: row.currency,
    amount: inMinorUnits(row.amount, row.currency),
    fee: inMinorUnits(row.fee, row.currency),
    net: inMinorUnits(row.net, row.currency),
    status: row.status,
    available_on: isoTimestamp(row.available_on),
    payout_id: row.payout_id === null ? null : Number(row.payout_id),
    created_at: isoTimestamp(row.created_at),
  };
}

/** The statement's conditions for a filter: one merchant's rows, by type, currency, payout and time. */
function filterConditions(merchantId: number, filter: Omit<BalanceTransactionFilter, "page" | "perPage">) {
  return [
    sql`merchant_id = ${merchantId}`,
    ...(filter.type ? [sql`type = ${filter.type}`] : []),
    ...(filter.currency ? [sql`currency = ${filter.currency}`] : []),
    // What the payout carried, not its own debit (which is marked too, so no later payout carries it).
    ...(filter.payout_id !== undefined
      ? [sql`payout_id = ${filter.payout_id} and not (type = 'payout' and source_id = ${filter.payout_id})`]
      : []),
    ...(filter.created_from ? [sql`created_at >= ${filter.created_from.toISOString()}`] : []),
    ...(filter.created_to ? [sql`created_at < ${filter.created_to.toISOString()}`] : []),
  ];
}

/**
 * A page of the merchant's balance transactions, newest first, with the filters' total: counted from the daily
 * totals (a day the date range cuts through on its own rows) and paged by seeking (readPageByDays), as the
 * payments are, so a deep page of millions costs about what page 1 does. A payout's are few: counted and
 * paged on their own rows.
 */
export async function listBalanceTransactions(
  db: Executor,
  merchantId: number,
  filter: BalanceTransactionFilter,
): Promise<{ items: BalanceTransaction[]; total: number }> {
  const conditions = filterConditions(merchantId, filter);
  const range = { offset: (filter.page - 1) * filter.perPage, limit: filter.perPage };
  if (filter.payout_id !== undefined) {
    const { rows, total } = await readSmallPage<Row>(db, "balance_transactions", conditions, range, COLUMNS);
    return { items: rows.map(toBalanceTransaction), total };
  }
  const dates = { from: filter.created_from, to: filter.created_to };
  const counted = await rollupDayCounts(db, "balance_transaction_daily_totals", [
    sql`merchant_id = ${merchantId}`,
    ...(filter.type ? [sql`type = ${filter.type}`] : []),
    ...(filter.currency ? [sql`currency = ${filter.currency}`] : []),
    ...rollupDayConditions(dates),
  ]);
  const days = await countCutDaysExactly(db, "balance_transactions", conditions, counted, dates);
  const rows = await readPageByDays<Row>(db, "balance_transactions", conditions, days, range, COLUMNS);
  return { items: rows.map(toBalanceTransaction), total: days.reduce((sum, day) => sum + day.count, 0) };
}

/**
 * One of the merchant's balance transactions. Another merchant's is not found, as none: the statement names
 * its merchant (one shard, one index range) and tells nothing of other merchants' ids.
 */
export async function findBalanceTransaction(
  db: Executor,
  merchantId: number,
  id: number,
): Promise<BalanceTransaction | undefined> {
  const [row] = await selectRows<Row>(
    db,
    sql`select ${COLUMNS} from balance_transactions where merchant_id = ${merchantId} and id = ${id}`,
  );
  return row && toBalanceTransaction(row);
}

/**
 * What a payout carried, oldest first, in keyset batches (its reconciliation CSV): memory stays flat however
 * many transactions a payout carries. The payout's own debit is left out, as `?payout_id=` does.
 */
export async function* exportPayoutTransactions(
  db: Executor,
  merchantId: number,
  payoutId: number,
  batchSize = 5000,
): AsyncGenerator<BalanceTransaction[], void> {
  let after = 0;
  for (;;) {
    const rows = await selectRows<Row>(
      db,
      sql`select ${COLUMNS} from balance_transactions
          where merchant_id = ${merchantId} and payout_id = ${payoutId} and id > ${after}
            and not (type = 'payout' and source_id = ${payoutId})
          order by id limit ${batchSize}`,
    );
    if (rows.length === 0) return;
    yield rows.map(toBalanceTransaction);
    after = Number(rows.at(-1)!.id);
    if (rows.length < batchSize) return;
  }
}

/**
 * Every balance transaction a filter matches, newest first, in keyset batches on (created_at, id): the All
 * transactions CSV, exactly the rows the page lists, with memory flat however many there are.
 */
export async function* exportBalanceTransactions(
  db: Executor,
  merchantId: number,
  filter: Omit<BalanceTransactionFilter, "page" | "perPage">,
  batchSize = 5000,
): AsyncGenerator<BalanceTransaction[], void> {
  const batches = newestFirstBatches<Row>(
    db,
    {
      columns: COLUMNS,
      from: "balance_transactions",
      where: sql.join(filterConditions(merchantId, filter), sql` and `),
    },
    batchSize,
  );
  for await (const rows of batches) yield rows.map(toBalanceTransaction);
}

/** What a payout's carried transactions add up to (its reconciliation: equal to the payout's amount). */
export async function payoutCarriedNet(
  db: Executor,
  merchantId: number,
  payoutId: number,
  currency: string,
): Promise<string> {
  const [row] = await selectRows<{ net: string }>(
    db,
    sql`select coalesce(sum(net), 0)::text as net from balance_transactions
        where merchant_id = ${merchantId} and payout_id = ${payoutId}
          and not (type = 'payout' and source_id = ${payoutId})`,
  );
  return inMinorUnits(row!.net, currency);
}

/**
 * The balance transactions one object moved money with, oldest first: a dispute's withdrawal and its
 * reinstatement, a payout's debit and the return of a failed or canceled one. A handful per object.
 */
export async function transactionsOfSource(
  db: Executor,
  merchantId: number,
  types: readonly BalanceTransaction["type"][],
  sourceId: number,
): Promise<BalanceTransaction[]> {
  const rows = await selectRows<Row>(
    db,
    sql`select ${COLUMNS} from balance_transactions
        where merchant_id = ${merchantId} and source_id = ${sourceId}
          and type in (${sql.join(
            types.map((type) => sql`${type}`),
            sql`, `,
          )})
        order by created_at, id`,
  );
  return rows.map(toBalanceTransaction);
}
