// `npm run bench:events`: GET /api/events on PostgreSQL with 1,000,000 events for one merchant (two per payment,
// spread over the 30 days of retention), one request at a time, as a merchant's backfill script would page.
// Needs a production build (`npm run build`). BENCH_EVENTS_DATABASE_URL is dropped and recreated.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { closeDatabase, migrateDatabase } from "@/db/client";
import { generateToken, hashToken, tokenDisplayHint } from "@/lib/tokens/format";
import { appServerEnv, freshDatabase, markdownTable, root, startScript } from "./harness";

const databaseUrl =
  process.env.BENCH_EVENTS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_events";
const eventCount = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 300);
const retentionSeconds = 29 * 24 * 3600;

process.env.DATABASE_URL = databaseUrl;
await freshDatabase(databaseUrl);
await migrateDatabase();
await closeDatabase();
const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
const seedStarted = performance.now();
const [merchant] = await sql<{ id: string }[]>`
  insert into merchants (name, rate_limit_per_minute)
  values ('Events bench', 100000000) returning id`;
const merchantId = Number(merchant!.id);
await sql`insert into payment_sequences (merchant_id, payments_count, last_created_at)
  values (${merchantId}, ${eventCount / 2}, now())`;
const token = generateToken();
await sql`insert into api_tokens (merchant_id, name, token_hash, display_hint, scope)
  values (${merchantId}, 'bench', ${hashToken(token)}, ${tokenDisplayHint(token)}, 'read')`;
// Event g belongs to payment ceil(g / 2): its pending event, then its completed or failed one.
await sql`
  insert into payments (merchant_id, merchant_seq, external_id, status, amount, source, created_at, updated_at)
  select ${merchantId}, g, 'bench_' || g, case when g % 10 = 0 then 'failed' else 'completed' end, 12.5, 'api',
         now() - make_interval(secs => ${retentionSeconds} * (1 - g::float / ${eventCount / 2})),
         now() - make_interval(secs => ${retentionSeconds} * (1 - g::float / ${eventCount / 2}))
  from generate_series(1, ${eventCount / 2}) as g`;
await sql`
  insert into events (id, merchant_id, payment_id, type, data, created_at)
  select 'evt_bench' || lpad(g::text, 13, '0'), ${merchantId}, p.id,
         case when g % 2 = 1 then 'payment.pending' when p.status = 'failed' then 'payment.failed'
              else 'payment.completed' end,
         json_build_object('id', p.id, 'external_id', p.external_id, 'type', 'payment',
                           'status', case when g % 2 = 1 then 'pending' else p.status end,
                           'amount', '12.50', 'metadata', null, 'created_at', p.created_at),
         p.created_at + make_interval(secs => (g % 2) * 2)
  from generate_series(1, ${eventCount}) as g
  join payments p on p.merchant_id = ${merchantId} and p.merchant_seq = (g + 1) / 2`;
// As the outbox statement would have counted them.
await sql`
  insert into event_hourly_counts (merchant_id, type, hour, count)
  select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*)
  from events group by 1, 2, 3`;
await sql`vacuum analyze`;
const seedSeconds = ((performance.now() - seedStarted) / 1000).toFixed(1);
console.log(`Seeded ${eventCount.toLocaleString("en-US")} events in ${seedSeconds} s`);

const port = 4400;
const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port),
  port,
  "/api/openapi.json",
);

type Listing = { data: { id: string }[]; meta: { total: number } };
const get = async (query: string): Promise<Listing> => {
  const response = await fetch(`${server.baseUrl}/api/events?${query}`, {
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
  });
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Listing;
};

/** The page as a plain OFFSET over the events would list it: the answer must be the same. */
async function expectSameAsOffset(query: string, type: string | undefined, page: number, perPage: number) {
  const expected = await sql<{ id: string }[]>`
    select id from events where merchant_id = ${merchantId} ${type ? sql`and type = ${type}` : sql``}
    order by created_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`;
  const listing = await get(query);
  const got = listing.data.map((event) => event.id).join();
  if (got !== expected.map((row) => row.id).join()) throw new Error(`${query} differs from OFFSET`);
  return listing.meta.total;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const scenarios: Array<{ name: string; query: string; type?: string; page: number; perPage: number }> = [
  { name: "page 1", query: "page=1", page: 1, perPage: 10 },
  { name: "page 10,000", query: "page=10000", page: 10_000, perPage: 10 },
  { name: "page 10,000, perPage=100", query: "page=10000&perPage=100", page: 10_000, perPage: 100 },
  {
    name: "type=payment.failed, page 1",
    query: "type=payment.failed",
    type: "payment.failed",
    page: 1,
    perPage: 10,
  },
  {
    name: "type=payment.completed, page 10,000",
    query: "type=payment.completed&page=10000",
    type: "payment.completed",
    page: 10_000,
    perPage: 10,
  },
  { name: "payment_id=<one payment>", query: "payment_id=PAYMENT", page: 1, perPage: 10 },
];
const [middle] = await sql<{ id: string }[]>`
  select id from payments where merchant_id = ${merchantId} and merchant_seq = ${eventCount / 4}`;
const rows = [];
try {
  for (const scenario of scenarios) {
    const query = scenario.query.replace("PAYMENT", middle!.id);
    const total = query.startsWith("payment_id")
      ? (await get(query)).meta.total
      : await expectSameAsOffset(query, scenario.type, scenario.page, scenario.perPage);
    for (let warm = 0; warm < 20; warm++) await get(query);
    const timings: number[] = [];
    for (let sample = 0; sample < samples; sample++) {
      const started = performance.now();
      await get(query);
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    rows.push({
      Request: `GET /api/events ${scenario.name}`,
      total: total.toLocaleString("en-US"),
      "p50 ms": percentile(timings, 50).toFixed(1),
      "p99 ms": percentile(timings, 99).toFixed(1),
    });
    console.log(JSON.stringify(rows.at(-1)));
  }
} finally {
  await server.stop();
  await sql.end();
}

const report = [
  `Seeded ${eventCount.toLocaleString("en-US")} events for one merchant (two per payment, over 29 days) in ${seedSeconds} s; ${samples} requests one at a time per row, after 20 to warm up; each page checked against a plain OFFSET query first.`,
  markdownTable(rows),
].join("\n\n");
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/events.md"), `${report}\n`);
console.log(`\n${report}`);
