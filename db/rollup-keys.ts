// Migration 0033 gave payment_daily_totals a primary key with `currency`. Built in the migrations'
// transaction, that index over a large rollup held every merchant's writes until it was done (31 s at
// 10,000,000 rollup rows, docs/benchmarks-log.md, "Currencies"): the transaction also holds the locks of
// 0033's ALTER TABLEs, and every payment writes this rollup. So the key is built here, after the migrations
// commit: the index CONCURRENTLY (writes go on), then a catalog-only swap of the constraint onto it. Every
// way the schema is migrated calls this right after the migrations (db/client.ts, db/embedded-connection.ts,
// tests, benchmarks); it does nothing once the key is there.

const TABLE = "payment_daily_totals";
/**
 * The key's name as drizzle-kit wrote it, cut to PostgreSQL's 63 bytes: the old key (without `currency`) had
 * the same name once cut, so the key is told apart by its columns.
 */
const KEY = "payment_daily_totals_merchant_id_customer_id_day_status_refund_";
const BUILDING = "payment_daily_totals_currency_key";

/** Runs one statement outside any transaction; returns its rows. */
type Run = (statement: string) => Promise<unknown[]>;

/**
 * `concurrently`: on PostgreSQL, build without blocking writes; PGlite has one connection and no one to block.
 * A build that was interrupted leaves an invalid index behind: it is dropped and built again.
 */
export async function finishRollupKeys(run: Run, { concurrently }: { concurrently: boolean }): Promise<void> {
  const [key] = (await run(
    `select c.conname, exists (
       select 1 from unnest(c.conkey) as k (attnum)
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum where a.attname = 'currency'
     ) as has_currency,
     exists (
       select 1 from pg_attribute a where a.attrelid = c.conrelid and a.attname = 'currency' and not a.attisdropped
     ) as currency_column
     from pg_constraint c where c.conrelid = '${TABLE}'::regclass and c.contype = 'p'`,
  )) as Array<{ conname: string; has_currency: boolean; currency_column: boolean }>;
  // Before migration 0033 (a test migrating to an earlier one) there is no currency yet; after, nothing to do.
  if (!key || key.has_currency || !key.currency_column) return;
  const mode = concurrently ? "concurrently " : "";
  await run(`drop index ${mode}if exists ${BUILDING}`);
  await run(
    `create unique index ${mode}${BUILDING} on ${TABLE} (merchant_id, customer_id, day, status, refund_state, currency)`,
  );
  // One ALTER: no moment without a key. The index becomes the key's, under the key's name.
  await run(
    `alter table ${TABLE} drop constraint "${key.conname}", add constraint "${KEY}" primary key using index ${BUILDING}`,
  );
}
