// Measures what one API request log entry costs: this process's CPU to buffer and write it, and the
// PostgreSQL backend's CPU to insert it. BENCH_DATABASE_URL is dropped and recreated.
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { freshDatabase } from "./harness";

const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_log";
process.env.DATABASE_URL = databaseUrl;
process.env.DATABASE_POOL_MAX = "1";
await freshDatabase(databaseUrl);
const { getBackgroundDb, migrateDatabase, closeDatabase, selectRows } = await import("@/db/client");
const { recordApiRequest, flushRequestLog } = await import("@/lib/logs/request-log");
const { timeOrderedId } = await import("@/lib/platform/ids");
await migrateDatabase();
// The log writes on the background connection: that backend's CPU is the log's.
const [backend] = await selectRows<{ pid: number }>(getBackgroundDb(), sql`select pg_backend_pid() as pid`);
const ticks = () => {
  const fields = readFileSync(`/proc/${backend!.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
};
const entries = Number(process.env.BENCH_ENTRIES ?? 200_000);
const record = () =>
  recordApiRequest({
    merchantId: (1 + Math.random() * 64) | 0,
    tokenId: 1,
    requestId: timeOrderedId("req"),
    method: "GET",
    path: "/api/payments?page=2",
    status: 200,
    latencyMs: 3.4,
    clientIp: "127.0.0.1",
    idempotencyKey: null,
    responseBody: null,
    createdAtMs: Date.now(),
  });
for (let round = 0; round < 2; round++) {
  const label = round === 0 ? "warm-up (empty table)" : `${entries} more entries`;
  const cpu = process.cpuUsage();
  const pgBefore = ticks();
  const started = performance.now();
  for (let i = 0; i < entries; i += 500) {
    for (let j = 0; j < 500; j++) record();
    await flushRequestLog();
  }
  const used = process.cpuUsage(cpu);
  const pg = (ticks() - pgBefore) * 10_000; // µs
  console.log(
    `${label}: node ${((used.user + used.system) / entries).toFixed(1)} µs/entry, postgres ${(pg / entries).toFixed(1)} µs/entry, ${(performance.now() - started).toFixed(0)} ms`,
  );
}
await closeDatabase();
