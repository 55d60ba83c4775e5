// Migration 0046 on a database at 0045: the balance transactions' daily totals gain amount and fee. Those of
// the transactions posted before it are added in batches (db/backfills.ts, ledger.4), once, by two servers at
// once; count and net stay as they were, and a transaction posted after the migration adds its own.
import { afterAll, describe, expect, it } from "vitest";
import { runBackfills } from "@/db/backfills";
import { freshDatabase, migrations, migrationsUpTo, type FreshDatabase } from "../support/migrations";

describe("migration 0046 and its backfill", () => {
  let database: FreshDatabase | undefined;
  afterAll(() => database?.close());

  it("adds the amount and fee of every earlier transaction to its day's totals, once", async () => {
    database = await freshDatabase("migration_0046");
    const db = database;
    await db.migrate(migrationsUpTo(45));
    const [merchant] = await db.query<{ id: string }>(
      `insert into merchants (name) values ('Sums') returning id::text`,
    );
    const id = merchant!.id;
    // Five payments and a refund over two days, with their daily totals as 0045's postings kept them.
    await db.query(`insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net,
        status, available_on, created_at)
      select ${id}, 'payment', g, 'EUR', 10, 0.59, 9.41, 'available', now(), ('2026-11-0' || (1 + g % 2) || 'T12:00:00Z')::timestamptz
      from generate_series(1, 5) g
      union all select ${id}, 'refund', 6, 'EUR', -2, 0, -2, 'available', now(), '2026-11-02T13:00:00Z'::timestamptz`);
    await db.query(`insert into balance_transaction_daily_totals (merchant_id, day, type, currency, slot, count, net)
      select merchant_id, (created_at at time zone 'UTC')::date, type, currency, 0, count(*), sum(net)
      from balance_transactions group by 1, 2, 3, 4`);

    await db.migrate(migrations);
    // Posted after the migration: counted whole, by the posting itself (here by hand, as postings.ts does).
    await db.query(`with posted as (
        insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status,
                                          available_on, created_at)
        values (${id}, 'payment', 7, 'EUR', 20, 0.88, 19.12, 'available', now(), '2026-11-02T14:00:00Z')
        returning merchant_id, type, currency, amount, fee, net, created_at)
      insert into balance_transaction_daily_totals as d (merchant_id, day, type, currency, slot, count, amount, fee, net)
      select merchant_id, (created_at at time zone 'UTC')::date, type, currency, 1, 1, amount, fee, net from posted`);
    await Promise.all([runBackfills(db.db, 2), runBackfills(db.db, 2)]);

    const kept = await db.query(`select to_char(day, 'YYYY-MM-DD') as day, type, sum(count)::int as count,
        sum(amount)::text as amount, sum(fee)::text as fee, sum(net)::text as net
      from balance_transaction_daily_totals group by 1, 2
      -- A day may hold only what became available on it (migration 0062): no transaction was created on it.
      having sum(count) > 0 order by 1, 2`);
    const posted =
      await db.query(`select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, type,
        count(*)::int as count, sum(amount)::text as amount, sum(fee)::text as fee, sum(net)::text as net
      from balance_transactions group by 1, 2 order by 1, 2`);
    expect(kept).toEqual(posted);
    expect(kept).toContainEqual({
      day: "2026-11-02",
      type: "payment",
      count: 4,
      amount: "50",
      fee: "2.65",
      net: "47.35",
    });
    const [step] = await db.query<{ done: boolean }>(
      `select done_at is not null as done from backfills where name = 'ledger.4.balance_transaction_daily_sums'`,
    );
    expect(step!.done).toBe(true);
  });
});
