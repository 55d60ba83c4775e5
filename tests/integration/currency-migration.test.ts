// Migration 0033 (currencies) on a database at 0032: a merchant that had chosen EUR as its display currency gets
// EUR as its default in the migration's transaction, and its stored rows take EUR afterwards, in batches
// (db/backfills.ts), while an other merchant's rows stay USD and rows written after the migration keep theirs.
import { afterAll, describe, expect, it } from "vitest";
import { runBackfills } from "@/db/backfills";
import { freshDatabase, migrations, migrationsUpTo, type FreshDatabase } from "../support/migrations";

describe("migration 0033 and its backfill", () => {
  let database: FreshDatabase | undefined;
  afterAll(() => database?.close());

  it("moves a display-currency merchant's payments, refunds, links and rollups to its currency, in batches", async () => {
    database = await freshDatabase("migration_0033");
    const db = database;
    await db.migrate(migrationsUpTo(32));
    const [eu] = await db.query<{ id: string }>(
      `insert into merchants (name, display_currency, payments_count) values ('EU', 'eur', 7) returning id::text`,
    );
    const [us] = await db.query<{ id: string }>(
      `insert into merchants (name, payments_count) values ('US', 3) returning id::text`,
    );
    // Interleaved, so a batch of ids holds both merchants' rows.
    for (let seq = 1; seq <= 7; seq += 1) {
      await db.query(`insert into payments (merchant_id, merchant_seq, amount, status, customer_id)
        values (${eu!.id}, ${seq}, ${seq}.50, 'completed', 'cus_${seq % 2}')`);
      if (seq <= 3)
        await db.query(`insert into payments (merchant_id, merchant_seq, amount, status)
          values (${us!.id}, ${seq}, 1, 'completed')`);
    }
    await db.query(`insert into refunds (merchant_id, payment_id, amount, status)
      select merchant_id, id, 1, 'succeeded' from payments`);
    await db.query(`insert into payment_links (merchant_id, slug, name, amount)
      values (${eu!.id}, 'eu-link', 'EU link', 5), (${us!.id}, 'us-link', 'US link', 5)`);
    await db.query(`insert into payment_daily_totals (merchant_id, customer_id, day, status, count, volume)
      select merchant_id, scope, '2026-11-01', status, count(*), sum(amount)
      from payments, lateral (values (''), (customer_id)) as scopes (scope) where scope is not null
      group by 1, 2, 4`);
    await db.query(`insert into refund_daily_totals (merchant_id, day, count, amount)
      select merchant_id, '2026-11-02', count(*), sum(amount) from refunds group by 1`);
    await db.query(`insert into customers (merchant_id, customer_id, payments_count, completed_volume, refunded,
        first_payment_at, last_payment_at) values (${eu!.id}, 'cus_1', 4, 18, 0, now(), now())`);

    await db.migrate(migrations);
    // The rollup's key gained `currency` after the migrations' transaction (db/rollup-keys.ts).
    expect(
      await db.query(`select a.attname from pg_index i
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
        where i.indrelid = 'payment_daily_totals'::regclass and i.indisprimary order by a.attname`),
    ).toEqual(
      ["currency", "customer_id", "day", "merchant_id", "refund_state", "status"].map((attname) => ({
        attname,
      })),
    );

    // The migration's transaction moved only the default and the customers' sums.
    const defaults = await db.query<{ name: string; default_currency: string }>(
      // The accounts (0058 added a live environment beside each, with its settings).
      `select name, default_currency from merchants where account_id is null order by id`,
    );
    expect(defaults).toEqual([
      { name: "EU", default_currency: "EUR" },
      { name: "US", default_currency: "USD" },
    ]);
    expect(await db.query(`select currency, completed::text from customer_volumes`)).toEqual([
      { currency: "EUR", completed: "18.00" },
    ]);
    // Written after the migration, before the backfill: its currency is its own, and its day's rollup row
    // (EUR, the merchant's default now) is merged with the backfilled one.
    await db.query(`insert into payments (merchant_id, merchant_seq, amount, status, currency)
      values (${eu!.id}, 8, 100, 'completed', 'GBP'), (${eu!.id}, 9, 1, 'completed', 'EUR')`);
    await db.query(`insert into payment_daily_totals (merchant_id, customer_id, day, status, currency, count, volume)
      values (${eu!.id}, '', '2026-11-01', 'completed', 'EUR', 1, 1)`);

    // Batches of 2, two servers at once: they share the steps and finish them.
    await Promise.all([runBackfills(db.db, 2), runBackfills(db.db, 2)]);

    const payments = await db.query<{ merchant: string; currency: string; n: string }>(
      `select m.name as merchant, p.currency, count(*)::text as n from payments p
       join merchants m on m.id = p.merchant_id group by 1, 2 order by 1, 2`,
    );
    expect(payments).toEqual([
      { merchant: "EU", currency: "EUR", n: "8" },
      { merchant: "EU", currency: "GBP", n: "1" },
      { merchant: "US", currency: "USD", n: "3" },
    ]);
    expect(
      await db.query(`select m.name, r.currency, count(*)::text as n from refunds r
        join merchants m on m.id = r.merchant_id group by 1, 2 order by 1`),
    ).toEqual([
      { name: "EU", currency: "EUR", n: "7" },
      { name: "US", currency: "USD", n: "3" },
    ]);
    expect(await db.query(`select slug, currency from payment_links order by slug`)).toEqual([
      { slug: "eu-link", currency: "EUR" },
      { slug: "us-link", currency: "USD" },
    ]);
    const totals = await db.query<{ merchant_id: string; customer_id: string; currency: string }>(
      `select merchant_id::text, customer_id, currency, count::text, volume::text from payment_daily_totals
       order by merchant_id, customer_id`,
    );
    expect(totals).toEqual([
      { merchant_id: eu!.id, customer_id: "", currency: "EUR", count: "8", volume: "32.50" },
      { merchant_id: eu!.id, customer_id: "cus_0", currency: "EUR", count: "3", volume: "13.50" },
      { merchant_id: eu!.id, customer_id: "cus_1", currency: "EUR", count: "4", volume: "18.00" },
      { merchant_id: us!.id, customer_id: "", currency: "USD", count: "3", volume: "3.00" },
    ]);
    expect(
      await db.query(`select merchant_id::text, currency, count::text, amount::text from refund_daily_totals
        order by merchant_id`),
    ).toEqual([
      { merchant_id: eu!.id, currency: "EUR", count: "7", amount: "7.00" },
      { merchant_id: us!.id, currency: "USD", count: "3", amount: "3.00" },
    ]);
    const steps = await db.query<{ name: string; done: boolean }>(
      `select name, done_at is not null as done from backfills where name like 'currency.%' order by name`,
    );
    expect(steps.map((step) => step.done)).toEqual([true, true, true, true, true]);

    // Done is done: a later server start changes nothing.
    await runBackfills(db.db, 2);
    expect(await db.query(`select count(*)::text as n from payments where currency = 'EUR'`)).toEqual([
      { n: "8" },
    ]);
  });
});
