// Migration 0022 converts a database in place: a fresh database is migrated to 0021 (the journal cut there),
// given rows in both history tables, then migrated to the latest, on whichever driver the run uses.
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, migrations, migrationsUpTo, type FreshDatabase } from "../support/migrations";

/** Every row of a table, as text, in id order: what must be the same after the conversion. */
const contents = (database: FreshDatabase, table: string) =>
  database
    .query<{ rows: string | null; n: number | string }>(
      `select string_agg(t::text, E'\\n' order by t.id) as rows, count(*) as n from ${table} t`,
    )
    .then(([row]) => ({ rows: row!.rows, count: Number(row!.n) }));

describe("migration 0022 on a database with history", () => {
  let database: FreshDatabase | undefined;
  afterAll(() => database?.close());

  it("converts both tables in place and keeps every row", async () => {
    database = await freshDatabase("migration_0022");
    const db = database;
    await db.migrate(migrationsUpTo(21));
    const [merchant] = await db.query<{ id: number | string }>(
      `insert into merchants (name) values ('History') returning id`,
    );
    const merchantId = Number(merchant!.id);
    const [endpoint] = await db.query<{ id: number | string }>(
      `insert into webhook_endpoints (merchant_id, url, event_types, secret_ciphertext)
       values (${merchantId}, 'https://example.com/h', '{payment.pending}', 'x') returning id`,
    );
    await db.query(
      `insert into events (id, merchant_id, type, data) select 'evt_' || n, ${merchantId}, 'payment.pending', '{}'
       from generate_series(1, 20) n`,
    );
    const deliveries = await db.query<{ id: number | string }>(
      `insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
       select ${merchantId}, 'evt_' || n, ${endpoint!.id} from generate_series(1, 20) n returning id`,
    );
    // Rows over 60 days, so the conversion makes many partitions, some past any retention (still kept).
    await db.query(
      `insert into api_request_logs (merchant_id, request_id, token_id, method, path, status, latency_ms, client_ip,
         idempotency_key, response_body, created_at)
       select ${merchantId}, 'req_' || n, 1, 'POST', '/api/payments?n=' || n, case when n % 7 = 0 then 422 else 201 end,
              n / 10.0, '192.0.2.1', case when n % 3 = 0 then 'key-' || n end,
              case when n % 7 = 0 then '{"error":"bad"}' end, now() - make_interval(hours => n)
       from generate_series(1, 1500) n`,
    );
    await db.query(
      `insert into webhook_attempts (merchant_id, delivery_id, attempted_at, response_status, latency_ms, error,
         response_excerpt)
       select ${merchantId}, d.id, now() - make_interval(hours => d.id::int * 70 + n), 500, n, 'Timed out', 'oops'
       from webhook_deliveries d, generate_series(1, 5) n`,
    );
    // The newest ids are deleted: the sequence must continue past them, not hand them out again.
    await db.query(`delete from api_request_logs where id > (select max(id) - 3 from api_request_logs)`);
    await db.query(`delete from webhook_attempts where id > (select max(id) - 2 from webhook_attempts)`);
    const logsBefore = await contents(db, "api_request_logs");
    const attemptsBefore = await contents(db, "webhook_attempts");
    expect(logsBefore.count).toBe(1497);
    expect(attemptsBefore.count).toBe(98);

    await db.migrate(migrations);

    expect(await contents(db, "api_request_logs")).toEqual(logsBefore);
    expect(await contents(db, "webhook_attempts")).toEqual(attemptsBefore);
    const kinds = await db.query<{ relname: string; relkind: string; partitions: number | string }>(
      `select relname, relkind, (select count(*) from pg_inherits where inhparent = c.oid) as partitions
       from pg_class c where relname in ('api_request_logs', 'webhook_attempts') order by 1`,
    );
    expect(kinds.map((row) => row.relkind)).toEqual(["p", "p"]);
    // 1,500 hours back (63 days) and a week ahead; about 29 days of attempts (weeks) and a week ahead.
    expect(Number(kinds[0]!.partitions)).toBeGreaterThanOrEqual(70);
    expect(Number(kinds[1]!.partitions)).toBeGreaterThanOrEqual(5);

    // New rows land in today's partition with the next ids of the old sequences.
    const [log] = await db.query<{ id: number | string; partition: string }>(
      `insert into api_request_logs (merchant_id, request_id, token_id, method, path, status, latency_ms, client_ip)
       values (${merchantId}, 'req_new', 1, 'GET', '/api/payments', 200, 1, '192.0.2.1')
       returning id, tableoid::regclass::text as partition`,
    );
    expect(Number(log!.id)).toBe(1501);
    expect(log!.partition).toMatch(/^api_request_logs_p\d{8}$/);
    const [attempt] = await db.query<{ id: number | string }>(
      `insert into webhook_attempts (merchant_id, delivery_id, latency_ms)
       values (${merchantId}, ${deliveries[0]!.id}, 1) returning id`,
    );
    expect(Number(attempt!.id)).toBe(101);

    // The foreign keys are back, and deleting a delivery or a merchant still takes its attempts along.
    const foreignKeys = await db.query<{ conname: string; confdeltype: string }>(
      `select conname, confdeltype from pg_constraint
       where conrelid = 'webhook_attempts'::regclass and contype = 'f' order by 1`,
    );
    expect(foreignKeys).toEqual([
      { conname: "webhook_attempts_delivery_fk", confdeltype: "c" },
      { conname: "webhook_attempts_merchant_id_merchants_id_fk", confdeltype: "c" },
    ]);
    await db.query(`delete from webhook_deliveries where id = ${deliveries[1]!.id}`);
    const [left] = await db.query<{ n: number | string }>(
      `select count(*) as n from webhook_attempts where delivery_id = ${deliveries[1]!.id}`,
    );
    expect(Number(left!.n)).toBe(0);
    await expect(
      db.query(
        `insert into webhook_attempts (merchant_id, delivery_id, latency_ms) values (${merchantId}, -1, 1)`,
      ),
    ).rejects.toThrow(/foreign key/);
    // Nothing of the old tables is left behind.
    const leftovers = await db.query(`select relname from pg_class where relname like '%_unpartitioned%'`);
    expect(leftovers).toEqual([]);
  });
});
