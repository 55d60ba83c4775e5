// Migration 0031 gives the payments that had already failed their failure_code, read from the words they were
// stored with: a fresh database migrated to 0027, given payments, then migrated to the latest.
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, migrations, migrationsUpTo, type FreshDatabase } from "../support/migrations";

describe("migration 0031 on a database with failed payments", () => {
  let database: FreshDatabase | undefined;
  afterAll(() => database?.close());

  it("backfills each failed payment's code from its reason, processor_declined for any other words", async () => {
    database = await freshDatabase("migration_0031");
    const db = database;
    await db.migrate(migrationsUpTo(27));
    const [merchant] = await db.query<{ id: number | string }>(
      `insert into merchants (name) values ('Failures') returning id`,
    );
    const rows: Array<[status: string, reason: string | null, code: string | null]> = [
      ["failed", "Canceled by the merchant.", "canceled"],
      ["failed", "Expired: still pending 1 day after it was created.", "expired"],
      ["failed", "Your card was declined.", "card_declined"],
      ["failed", "Your card has insufficient funds.", "insufficient_funds"],
      ["failed", "Your card has expired.", "expired_card"],
      ["failed", "The payer failed authentication.", "authentication_failed"],
      [
        "failed",
        "Declined by the test processor: the amount is in the 2000.00–2999.99 test range, which always fails.",
        "processor_declined",
      ],
      ["failed", "Marked as failed by hand.", "processor_declined"],
      ["failed", "Failed by the test helper.", "processor_declined"],
      ["failed", null, "processor_declined"],
      ["pending", null, null],
      ["completed", null, null],
    ];
    const literal = (value: string | null) => (value === null ? "null" : `'${value}'`);
    await db.query(
      `insert into payments (merchant_id, merchant_seq, amount, status, failure_reason) values ${rows
        .map(
          ([status, reason], index) => `(${merchant!.id}, ${index + 1}, 1, '${status}', ${literal(reason)})`,
        )
        .join(", ")}`,
    );

    await db.migrate(migrations);

    const after = await db.query<{
      status: string;
      failure_reason: string | null;
      failure_code: string | null;
    }>(`select status, failure_reason, failure_code from payments order by merchant_seq`);
    expect(after.map((row) => [row.status, row.failure_reason, row.failure_code])).toEqual(rows);
  });
});
