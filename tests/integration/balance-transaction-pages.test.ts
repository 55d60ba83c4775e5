// The balance transactions list counts from its daily totals and seeks deep pages by day (readPageByDays), as
// the payments list does. Against the plain answer (offset and count(*) over the rows) for a merchant whose
// transactions span several days: every page, with type, currency and date filters, a date range cutting
// through a day, and a payout's transactions (counted on their own rows).
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { listBalanceTransactions, type BalanceTransactionFilter } from "@/lib/ledger/balance-transactions";
import { addToBalances } from "@/lib/ledger/postings";
import { db, newMerchant } from "../support/direct-db";

let merchantId: number;
const HOUR = 3_600_000;
const today = new Date(new Date().toISOString().slice(0, 10));
const hoursAgo = (hours: number) => new Date(today.getTime() + 12 * HOUR - hours * HOUR);

beforeAll(async () => {
  merchantId = await newMerchant("Pages");
  // 60 transactions, one every 2 hours over 5 days: payments in EUR and JPY, refunds, and a payout's. Written
  // as a posting writes them, with their daily totals (a day's spread over two slots, as postings spread them)
  // and their entries, so the books stay balanced for ledger:verify in the suites that share this database.
  await db.execute(sql`
    with made as (
      insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status,
                                        available_on, payout_id, created_at)
      select ${merchantId}, case when g % 5 = 0 then 'refund' else 'payment' end, g,
             case when g % 3 = 0 then 'JPY' else 'EUR' end, amount, 0, amount, 'available', now(),
             case when g < 10 then 777 end,
             ${hoursAgo(0).toISOString()}::timestamptz - make_interval(hours => g * 2)
      from generate_series(1, 60) as g,
           lateral (select case when g % 5 = 0 then -g else g end::numeric as amount) a
      returning merchant_id, id, type, currency, amount, fee, net, created_at),
    counted as (
      insert into balance_transaction_daily_totals (merchant_id, day, type, currency, slot, count, amount, fee, net)
      select merchant_id, (created_at at time zone 'UTC')::date, type, currency, id % 2, count(*), sum(amount),
             sum(fee), sum(net)
      from made group by 1, 2, 3, 4, 5
      returning 1),
    lines as (
      select merchant_id, id as transaction_id, currency, account, moved as amount
      from made, lateral (values ('available', net), ('clearing', -net)) as entry (account, moved)),
    ${addToBalances(sql`lines`, "post")}
    select 1`);
});

async function plainAnswer(filter: BalanceTransactionFilter) {
  const conditions = [
    sql`merchant_id = ${merchantId}`,
    ...(filter.type ? [sql`type = ${filter.type}`] : []),
    ...(filter.currency ? [sql`currency = ${filter.currency}`] : []),
    ...(filter.payout_id !== undefined ? [sql`payout_id = ${filter.payout_id}`] : []),
    ...(filter.created_from ? [sql`created_at >= ${filter.created_from.toISOString()}`] : []),
    ...(filter.created_to ? [sql`created_at < ${filter.created_to.toISOString()}`] : []),
  ];
  const where = sql.join(conditions, sql` and `);
  const ids = await selectRows<{ id: string }>(
    db,
    sql`select id::text from balance_transactions where ${where} order by created_at desc, id desc
        offset ${(filter.page - 1) * filter.perPage} limit ${filter.perPage}`,
  );
  const [count] = await selectRows<{ n: string }>(
    db,
    sql`select count(*)::text as n from balance_transactions where ${where}`,
  );
  return { ids: ids.map((row) => Number(row.id)), total: Number(count!.n) };
}

describe("balance transactions, counted and paged from their daily totals", () => {
  it.each([
    ["no filter", {}],
    ["type", { type: "refund" as const }],
    ["currency", { currency: "JPY" }],
    ["type and currency", { type: "payment" as const, currency: "EUR" }],
    ["whole days", { created_from: hoursAgo(72 + 12), created_to: hoursAgo(12) }],
    [
      "a range cutting through its first and last days",
      { created_from: hoursAgo(93), created_to: hoursAgo(7) },
    ],
    ["a cut range and a currency", { created_from: hoursAgo(50), currency: "EUR" }],
    ["a payout's", { payout_id: 777 }],
  ])("%s: every page and the total are the plain answer's", async (_name, filter) => {
    for (const perPage of [7, 25])
      for (let page = 1; page <= Math.ceil(60 / perPage) + 1; page++) {
        const query = { ...filter, page, perPage };
        const listed = await listBalanceTransactions(db, merchantId, query);
        expect({ ids: listed.items.map((item) => item.id), total: listed.total }).toEqual(
          await plainAnswer(query),
        );
      }
  });

  it("the filters leave days out, and the totals are exact", async () => {
    expect((await listBalanceTransactions(db, merchantId, { page: 1, perPage: 100 })).total).toBe(60);
    expect(
      (await listBalanceTransactions(db, merchantId, { page: 1, perPage: 100, type: "refund" })).total,
    ).toBe(12);
  });
});
