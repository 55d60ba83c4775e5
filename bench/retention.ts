// Retention of one day of the API request log: dropping its partition (what the pruner does) against
// deleting the same rows from an unpartitioned copy (what it did before), in wall time and WAL bytes.
// BENCH_RETENTION_DATABASE_URL is dropped and recreated; BENCH_ROWS rows (10,000,000) over BENCH_DAYS whole
// UTC days (10) before today, so the oldest day holds a tenth of them.
import postgres from "postgres";
import { freshDatabase } from "./harness";

const databaseUrl =
  process.env.BENCH_RETENTION_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_retention";
const rows = Number(process.env.BENCH_ROWS ?? 10_000_000);
const days = Number(process.env.BENCH_DAYS ?? 10);
process.env.DATABASE_URL = databaseUrl;
process.env.DATABASE_POOL_MAX = "1";
await freshDatabase(databaseUrl);
const { getDb, migrateDatabase, closeDatabase } = await import("@/db/client");
const { createPartitions, dropExpiredPartitions } = await import("@/lib/platform/history-partitions");
await migrateDatabase();
const db = getDb();
// No statement timeout here: loading ten million rows takes minutes.
const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });

const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(3);
const megabytes = (bytes: number | string) => (Number(bytes) / 1024 / 1024).toFixed(1);

async function timed(label: string, work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  console.log(`${label}: ${seconds(started)} s`);
}

/** Wall time and WAL written (cluster-wide: other databases' writes during the step count too). */
async function measured(label: string, work: () => Promise<unknown>) {
  await client`checkpoint`;
  const [before] = await client<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
  const started = performance.now();
  await work();
  const time = seconds(started);
  const [after] = await client<{ wal: string }[]>`
    select pg_wal_lsn_diff(pg_current_wal_lsn(), ${before!.lsn}::pg_lsn) as wal`;
  console.log(`${label}: ${time} s, WAL ${megabytes(after!.wal)} MB (${after!.wal} bytes)`);
  return { label, seconds: time, walBytes: Number(after!.wal) };
}

const today = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
const first = new Date(today.getTime() - days * 86_400_000);
console.log(`${rows.toLocaleString("en")} rows over ${days} days from ${first.toISOString().slice(0, 10)}`);
await createPartitions(db, "api_request_logs", first, today);

// The unpartitioned copy: the same columns, loaded without indexes, then given the partitioned table's.
await timed("load the unpartitioned copy", async () => {
  await client`create table api_request_logs_flat (like api_request_logs including defaults)`;
  await client`
    insert into api_request_logs_flat (id, merchant_id, request_id, token_id, method, path, status, latency_ms,
      client_ip, idempotency_key, response_body, created_at)
    select n, 1 + n % 64, 'req_' || md5(n::text), 1 + n % 64, 'GET', '/api/payments?page=' || n % 100,
           case when n % 50 = 0 then 422 else 200 end, 3.4, '127.0.0.1', null,
           case when n % 50 = 0 then '{"error":{"message":"bad"}}' end,
           ${first.toISOString()}::timestamptz + (n - 1)::float8 * make_interval(secs => ${(days * 86_400) / rows})
    from generate_series(1, ${rows}::bigint) n`;
  await client`alter table api_request_logs_flat add primary key (id, created_at)`;
  await client`create index on api_request_logs_flat (merchant_id, created_at desc, id desc)`;
  await client`create index on api_request_logs_flat using brin (created_at)`;
});
// Into the partitioned table through its indexes, as the writer's inserts put them there.
await timed("load the partitioned table", () =>
  client`insert into api_request_logs overriding system value select * from api_request_logs_flat`.then(
    () => {},
  ),
);
await timed("vacuum analyze both", () => client`vacuum analyze api_request_logs, api_request_logs_flat`);

const [sizes] = await client<{ flat: string; partition: string; day: string }[]>`
  select pg_total_relation_size('api_request_logs_flat') as flat,
         (select pg_total_relation_size(c.oid) from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'api_request_logs'::regclass order by c.relname limit 1) as partition,
         (select count(*) from api_request_logs_flat where created_at < ${first.toISOString()}::timestamptz + interval '1 day') as day`;
console.log(
  `unpartitioned table ${megabytes(sizes!.flat)} MB; the oldest day: ${Number(sizes!.day).toLocaleString("en")} rows, partition ${megabytes(sizes!.partition)} MB`,
);

// The Logs page's first page (newest first) for one of 64 merchants, best of five, on both tables.
for (const table of ["api_request_logs", "api_request_logs_flat"]) {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    await client.unsafe(`select id, path, created_at from ${table} where merchant_id = 5
                         order by created_at desc, id desc limit 50`);
    times.push(performance.now() - started);
  }
  console.log(`Logs page, first page, ${table}: ${Math.min(...times).toFixed(2)} ms`);
}

// The oldest day's rows; a retention of days - 1 leaves exactly its partition wholly past it.
const dayEnd = new Date(first.getTime() + 86_400_000).toISOString();
const results = [
  // The server is shared: what others write in a second, against which the small figures are read.
  await measured(
    "nothing for a second (others' WAL)",
    () => new Promise((resolve) => setTimeout(resolve, 1000)),
  ),
  await measured("DELETE of the day from the unpartitioned table (one statement)", () =>
    client`delete from api_request_logs_flat where created_at < ${dayEnd}::timestamptz`.then(() => {}),
  ),
  await measured("  then the VACUUM that DELETE leaves to do", () => client`vacuum api_request_logs_flat`),
  // What the pruner did before: batches of 1,000 (short transactions), on the next day, now the oldest.
  await measured("DELETE of the next day in the former pruner's batches of 1,000", async () => {
    const nextDayEnd = new Date(first.getTime() + 2 * 86_400_000).toISOString();
    for (;;) {
      const [row] = await client<{ deleted: string }[]>`
        with deleted as (
          delete from api_request_logs_flat where ctid = any(array(
            select ctid from api_request_logs_flat where created_at < ${nextDayEnd}::timestamptz limit 1000))
          returning 1)
        select count(*) as deleted from deleted`;
      if (Number(row!.deleted) < 1000) break;
    }
  }),
  await measured("  then the VACUUM that DELETE leaves to do", () => client`vacuum api_request_logs_flat`),
  await measured("DROP of the day's partition (the pruner's dropExpiredPartitions)", async () => {
    const dropped = await dropExpiredPartitions(db, {
      api_request_logs: days - 1,
      webhook_attempts: 3650,
      security_events: 3650,
    });
    if (dropped.api_request_logs !== 1)
      throw new Error(`expected one partition dropped, not ${dropped.api_request_logs}`);
  }),
];
console.log(JSON.stringify(results));
await client.end();
await closeDatabase();
