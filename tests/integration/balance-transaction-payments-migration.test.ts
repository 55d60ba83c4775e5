// Migration 0056 on a database at 0055: every balance transaction names the payment it concerns, with that
// payment's order and customer. Those posted before it are filled in batches (db/backfills.ts, ledger.5), by two
// servers at once; settle_payment and post_move write them on what they post after it; a payout names none.
import { afterAll, describe, expect, it } from "vitest";
import { runBackfills } from "@/db/backfills";
import { freshDatabase, migrations, migrationsUpTo, type FreshDatabase } from "../support/migrations";

type Named = {
  type: string;
  source_id: string;
  payment_id: string | null;
  external_id: string | null;
  customer_id: string | null;
};

describe("migration 0056 and its backfill", () => {
  let database: FreshDatabase | undefined;
  afterAll(() => database?.close());

  it("names each transaction's payment, order and customer, before and after the migration", async () => {
    database = await freshDatabase("migration_0056");
    const db = database;
    await db.migrate(migrationsUpTo(55));
    // As a server at 0055 left them: its backfills done, before these rows.
    await db.query(`update backfills set done_at = now()`);
    const [merchant] = await db.query<{ id: string }>(
      `insert into merchants (name) values ('Orders') returning id::text`,
    );
    const id = merchant!.id;
    const payment = async (seq: number, externalId: string, customerId: string, status: string) => {
      const [row] = await db.query<{ id: string }>(
        `insert into payments (merchant_id, merchant_seq, amount, currency, status, external_id, customer_id)
         values (${id}, ${seq}, 10, 'EUR', '${status}', '${externalId}', '${customerId}') returning id::text`,
      );
      return row!.id;
    };
    const shoes = await payment(1, "order-1", "cus_1", "completed");
    const hats = await payment(2, "order-2", "", "completed");
    const [refund] = await db.query<{ id: string }>(
      `insert into refunds (merchant_id, payment_id, amount, currency) values (${id}, ${shoes}, 2, 'EUR')
       returning id::text`,
    );
    const [dispute] = await db.query<{ id: string }>(
      `insert into disputes (merchant_id, payment_id, amount, currency, reason, status, evidence_due_by)
       values (${id}, ${hats}, 10, 'EUR', 'fraudulent', 'won', now()) returning id::text`,
    );
    // As 0055's postings wrote them: no payment named.
    await db.query(`insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net,
        status, available_on)
      values (${id}, 'payment', ${shoes}, 'EUR', 10, 0, 10, 'available', now()),
             (${id}, 'payment', ${hats}, 'EUR', 10, 0, 10, 'available', now()),
             (${id}, 'refund', ${refund!.id}, 'EUR', -2, 0, -2, 'available', now()),
             (${id}, 'refund_failure', ${refund!.id}, 'EUR', 2, 0, 2, 'available', now()),
             (${id}, 'dispute', ${dispute!.id}, 'EUR', -10, 15, -25, 'available', now()),
             (${id}, 'dispute_won', ${dispute!.id}, 'EUR', 10, 0, 10, 'available', now()),
             (${id}, 'payout', 99, 'EUR', -5, 0, -5, 'available', now())`);

    await db.migrate(migrations);
    // Posted after it, by the database's write functions: a settle and a refund's move.
    const scarf = await payment(3, "order-3", "cus_3", "pending");
    await db.query(
      `select settle_payment(${id}, ${scarf}, 'evt_0056', 'completed', null, null, null, 0, false)`,
    );
    await db.query(`select post_move(${id}, 'refund', ${refund!.id}, 'EUR', -1, 0, null,
      array['available', 'clearing'], array[-1, 1]::numeric[])`);
    await Promise.all([runBackfills(db.db, 2), runBackfills(db.db, 2)]);

    const named =
      await db.query<Named>(`select type, source_id::text, payment_id::text, external_id, customer_id
      from balance_transactions order by id`);
    const of = (paymentId: string | null, externalId: string | null, customerId: string | null) => ({
      payment_id: paymentId,
      external_id: externalId,
      customer_id: customerId,
    });
    expect(named).toEqual([
      { type: "payment", source_id: shoes, ...of(shoes, "order-1", "cus_1") },
      { type: "payment", source_id: hats, ...of(hats, "order-2", "") },
      { type: "refund", source_id: refund!.id, ...of(shoes, "order-1", "cus_1") },
      { type: "refund_failure", source_id: refund!.id, ...of(shoes, "order-1", "cus_1") },
      { type: "dispute", source_id: dispute!.id, ...of(hats, "order-2", "") },
      { type: "dispute_won", source_id: dispute!.id, ...of(hats, "order-2", "") },
      { type: "payout", source_id: "99", ...of(null, null, null) },
      { type: "payment", source_id: scarf, ...of(scarf, "order-3", "cus_3") },
      { type: "refund", source_id: refund!.id, ...of(shoes, "order-1", "cus_1") },
    ]);
    const [step] = await db.query<{ done: boolean }>(
      `select done_at is not null as done from backfills where name = 'ledger.5.balance_transaction_payments'`,
    );
    expect(step!.done).toBe(true);
  });
});
