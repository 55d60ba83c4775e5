// `npm run bench:webhooks`: webhook delivery on PostgreSQL through one `npm run worker` process to a local
// receiver. (1) 200 payment events/s for 30 s: event-to-delivery latency. (2) A backlog of 20,000 deliveries:
// the highest sustained delivery rate. BENCH_WEBHOOKS_DATABASE_URL is dropped and recreated.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { freshDatabase, markdownTable, percentile, root, startScript } from "./harness";

const databaseUrl =
  process.env.BENCH_WEBHOOKS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_webhooks";
const rate = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const backlog = Number(process.env.BENCH_BACKLOG ?? 20_000);
const receiverPort = 4300;

await freshDatabase(databaseUrl);
process.env.DATABASE_URL = databaseUrl;
process.env.AUTH_SECRET ??= randomBytes(33).toString("base64");
process.env.ENCRYPTION_KEYS ??= randomBytes(32).toString("base64");
process.env.PAYMENTS_AUTO_SETTLE_MS = "0";
const { getDb, migrateDatabase, closeDatabase, selectRows } = await import("@/db/client");
const { sql } = await import("drizzle-orm");
const { createMerchantWithOwner } = await import("@/lib/accounts/accounts");
const { createPayment } = await import("@/lib/payments/create-payment");
const { createWebhookEndpoint } = await import("@/lib/webhooks/endpoints");
await migrateDatabase();
const db = getDb();

// The receiver: answers 200 at once and records when each payment's first event arrived.
const latencies: number[] = [];
let received = 0;
let firstReceivedAt = 0;
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    // The harness's readiness probe is a bodiless GET.
    if (request.method !== "POST") return response.writeHead(200).end("ready");
    received++;
    firstReceivedAt ||= Date.now();
    const { data } = JSON.parse(Buffer.concat(chunks).toString()) as { data: { created_at: string } };
    latencies.push(Date.now() - Date.parse(data.created_at));
    response.writeHead(200).end("ok");
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));

const { merchantId } = await createMerchantWithOwner(db, {
  name: "Webhook bench",
  email: `hooks-${Date.now()}@example.test`,
  password: "bench passphrase",
});
await createWebhookEndpoint(db, merchantId, {
  url: `http://127.0.0.1:${receiverPort}/hooks`,
  events: ["payment.pending"],
});

const worker = await startScript(
  "scripts/worker.ts",
  { ...process.env, NODE_ENV: "production", WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true", DATABASE_POOL_MAX: "8" },
  receiverPort,
  { line: "Webhook worker running" },
);

// Phase 1: a steady 200 events/s, created through the product's own createPayment.
const tickMs = 50;
const perTick = (rate * tickMs) / 1000;
const total = rate * seconds;
let created = 0;
const started = Date.now();
while (created < total) {
  const due = Math.min(total, Math.floor(((Date.now() - started) / tickMs + 1) * perTick));
  const batch: Array<Promise<unknown>> = [];
  for (; created < due; created++)
    batch.push(createPayment(db, merchantId, { amount: 1 }, { source: "api", autoSettleMs: 0 }));
  await Promise.all(batch);
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, started + (created / perTick) * tickMs - Date.now())),
  );
}
while (received < total) await new Promise((resolve) => setTimeout(resolve, 50));
const steady = {
  Phase: `${rate} events/s for ${seconds} s`,
  delivered: received,
  "p50 ms": percentile(latencies, 50),
  "p99 ms": percentile(latencies, 99),
  "worker RSS MB": worker.peakRssMb(),
};

// Phase 2: a backlog written straight into the outbox, then drained as fast as the worker can.
await worker.stop();
latencies.length = 0;
received = 0;
firstReceivedAt = 0;
await db.execute(sql`
  insert into events (id, merchant_id, type, data)
  select 'evt_bench_' || g, ${merchantId}, 'payment.pending', json_build_object('id', g, 'created_at', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  from generate_series(1, ${backlog}) g`);
await db.execute(sql`
  insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
  select ${merchantId}, 'evt_bench_' || g, (select id from webhook_endpoints where merchant_id = ${merchantId}) from generate_series(1, ${backlog}) g`);
const drainer = await startScript(
  "scripts/worker.ts",
  { ...process.env, NODE_ENV: "production", WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true", DATABASE_POOL_MAX: "8" },
  receiverPort,
  { line: "Webhook worker running" },
);
for (;;) {
  const [row] = await selectRows<{ left: number }>(
    db,
    sql`select count(*)::int as left from webhook_deliveries where status = 'pending'`,
  );
  if (row!.left === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
// From the first delivery, so the worker's boot is not counted.
const drainSeconds = (Date.now() - firstReceivedAt) / 1000;
const drain = {
  Phase: `backlog of ${backlog.toLocaleString("en-US")}`,
  delivered: received,
  "p50 ms": "—",
  "p99 ms": "—",
  "worker RSS MB": drainer.peakRssMb(),
  "deliveries/s": Math.round(backlog / drainSeconds),
};
await drainer.stop();
receiver.close();
await closeDatabase();

const report = `Webhooks on PostgreSQL, one worker process (64 concurrent sends), receiver on loopback.\n\n${markdownTable([{ ...steady, "deliveries/s": "—" }, drain])}\n`;
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/webhooks.md"), report);
console.log(`\n${report}`);
process.exit(0);
