// `node --import tsx --conditions=react-server bench/currency-migration.ts`: migrations 0033 to 0035
// (currencies) and then their backfill (db/backfills.ts) timed on a database at 0032 holding MIG_PAYMENTS
// payments (default 10,000,000) of one merchant that had chosen EUR as its display currency, the worst case:
// every row of its is backfilled. Meanwhile a second merchant inserts a payment every 50 ms, and the big one
// too; the longest insert of each is how long writes waited. docs/benchmarks-log.md, "Currencies".
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { runBackfills } from "@/db/backfills";
import type { Database } from "@/db/client";
import { finishRollupKeys } from "@/db/rollup-keys";

const count = Number(process.env.MIG_PAYMENTS ?? 10_000_000);
const server = process.env.BENCH_SERVER_URL ?? "postgres://postgres@127.0.0.1:5432";
const url = `${server}/currency_migration_bench`;
const migrations = path.resolve(import.meta.dirname, "../db/migrations");

/** The same folder, its journal cut after migration `last`. */
function migrationsThrough(last: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), `migrations-${last}-`));
  cpSync(migrations, folder, { recursive: true });
  const journalPath = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}
// As they stood before currencies; and through MIG_THROUGH (default 35: currencies and their backfill; the
// ledger's 36 adds its own backfill of every completed payment).
const before = migrationsThrough(32);
const after = migrationsThrough(Number(process.env.MIG_THROUGH ?? 35));

const admin = postgres(`${server}/postgres`, { max: 1, onnotice: () => {} });
await admin`drop database if exists currency_migration_bench with (force)`;
await admin`create database currency_migration_bench`;
await admin.end();
const sql = postgres(url, { max: 2, onnotice: () => {} });
await migrate(drizzle({ client: sql }), { migrationsFolder: before });
rmSync(before, { recursive: true, force: true });

const [big] = await sql<Array<{ id: string }>>`insert into merchants (name, display_currency, payments_count)
  values ('Big EU', 'EUR', ${count}) returning id`;
const [other] = await sql<
  Array<{ id: string }>
>`insert into merchants (name, payments_count) values ('Other US', 0) returning id`;
const started = Date.now();
for (let from = 1; from <= count; from += 1_000_000) {
  const to = Math.min(count, from + 999_999);
  await sql`insert into payments (merchant_id, merchant_seq, amount, status, customer_id, created_at, updated_at)
    select ${big!.id}, g, ((g * 7919) % 500000) / 100.0 + 1,
           case when g % 10 = 0 then 'failed' else 'completed' end, 'cus_' || (g % 50000),
           now() - make_interval(secs => (${count} - g) * 3), now()
    from generate_series(${from}::bigint, ${to}::bigint) g`;
}
await sql`insert into payment_daily_totals (merchant_id, customer_id, day, status, refund_state, count, volume)
  select merchant_id, scope, (created_at at time zone 'UTC')::date, status, 'none', count(*), sum(amount)
  from payments, lateral (values (''), (customer_id)) as scopes (scope) group by 1, 2, 3, 4`;
await sql`insert into customers (merchant_id, customer_id, payments_count, completed_volume, refunded,
                                 first_payment_at, last_payment_at)
  select merchant_id, customer_id, count(*), coalesce(sum(amount) filter (where status = 'completed'), 0), 0,
         min(created_at), max(created_at)
  from payments group by 1, 2`;
await sql`vacuum analyze payments`;
console.log(
  `Seeded ${count.toLocaleString("en-US")} payments in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

let writing = true;
type Insert = { at: number; took: number };
/** Inserts a payment of the merchant every 50 ms until the backfill is done, noting when and how long. */
function writeWhileMigrating(merchantId: string, firstSeq: number) {
  const inserts: Insert[] = [];
  const done = (async () => {
    const one = postgres(url, { max: 1, onnotice: () => {} });
    for (let seq = firstSeq; writing; seq += 1) {
      const at = Date.now();
      await one`insert into payments (merchant_id, merchant_seq, amount) values (${merchantId}, ${seq}, 1.00)`;
      inserts.push({ at, took: Date.now() - at });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await one.end();
  })();
  return { inserts, done };
}
const writers = {
  "the other merchant": writeWhileMigrating(other!.id, 1),
  "the big merchant": writeWhileMigrating(big!.id, count + 1),
};
/** Each writer's inserts that started in [from, to): how many, and the longest. */
const during = (from: number, to: number) =>
  Object.entries(writers)
    .map(([label, { inserts }]) => {
      const mine = inserts.filter((insert) => insert.at >= from && insert.at < to);
      return `${label}'s ${mine.length} inserts, the longest ${Math.max(0, ...mine.map((insert) => insert.took))} ms`;
    })
    .join("; ");
const migrationStarted = Date.now();
await migrate(drizzle({ client: sql }), { migrationsFolder: after });
const keysStarted = Date.now();
await finishRollupKeys((statement) => sql.unsafe(statement), { concurrently: true });
const backfillStarted = Date.now();
// MIG_SKIP_BACKFILL=1: the schema's transaction and the key alone (the backfill takes a quarter of an hour).
if (process.env.MIG_SKIP_BACKFILL !== "1")
  await runBackfills(drizzle({ client: sql }) as unknown as Database);
const backfillEnded = Date.now();
writing = false;
await Promise.all(Object.values(writers).map((writer) => writer.done));
console.log(
  `Schema migrations in ${((keysStarted - migrationStarted) / 1000).toFixed(1)} s; ${during(migrationStarted, keysStarted)}`,
);
console.log(
  `The rollup's key, built concurrently and swapped in, in ${((backfillStarted - keysStarted) / 1000).toFixed(1)} s; ${during(keysStarted, backfillStarted)}`,
);
console.log(
  `Backfill in ${((backfillEnded - backfillStarted) / 1000).toFixed(1)} s; ${during(backfillStarted, backfillEnded)}`,
);
console.log(await sql`select name, done_at from backfills order by name`);
console.log(await sql`select currency, count(*)::int as payments from payments group by 1 order by 1`);
rmSync(after, { recursive: true, force: true });
await sql.end();
