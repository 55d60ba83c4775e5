// `npm run bench:security` (issue 59): what the security history costs and how its page reads at scale.
// 1. The record on the token paths: createApiToken and revokeApiToken in this process on PostgreSQL, each run
//    with an actor (one more INSERT in the action's transaction) and without, alternating, BENCH_RUNS times.
// 2. Settings → Security history at BENCH_RECORDS (1,000,000) records of one merchant over 347 days, against
//    one payment's page: page 1, a filter, a deep page (by its id cursor), the oldest page, and the CSV of all.
// Needs a production build (`npm run build`). BENCH_DATABASE_URL is recreated.
import { sql } from "drizzle-orm";
import { measureExport } from "./dashboard";
import { time } from "./filters";
import { appServerEnv, freshDatabase, markdownTable, SERVER_NODE_FLAGS, startScript } from "./harness";
import { seedBenchmark } from "./seed";
import { logInOverHttp } from "../tests/support/http-session";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_security";
const runs = Number(process.env.BENCH_RUNS ?? 300);
const recordCount = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const port = 4900 + Math.floor(Math.random() * 90);

process.env.DATABASE_URL = databaseUrl;
await freshDatabase(databaseUrl);
const seed = await seedBenchmark(databaseUrl, 10_000, 1);
const { getDb, closeDatabase, selectRows } = await import("@/db/client");
const { createPartitions } = await import("@/lib/platform/history-partitions");
const { createApiToken, revokeApiToken } = await import("@/lib/tokens/tokens");
const db = getDb();
const [merchant] = await selectRows<{ merchant_id: string }>(
  db,
  sql`select merchant_id from users where email = ${seed.email}`,
);
const merchantId = Number(merchant!.merchant_id);
const actor = { actor: seed.email, ip: "203.0.113.9", userAgent: "bench" };

/** Milliseconds of each call, with and without the record, taken in turn so drift falls on both alike. */
async function paired<T>(work: (index: number, recorded: boolean) => Promise<T>) {
  const times = { with: [] as number[], without: [] as number[] };
  for (let index = 0; index < runs * 2; index++) {
    const recorded = index % 2 === 0;
    const started = performance.now();
    await work(index, recorded);
    times[recorded ? "with" : "without"].push(performance.now() - started);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { with: median(times.with), without: median(times.without) };
}

const created: number[] = [];
const create = await paired(async (index, recorded) => {
  const token = await createApiToken(
    db,
    merchantId,
    { name: `bench ${index}` },
    recorded ? actor : undefined,
  );
  created.push(token.id);
});
const revoke = await paired((index, recorded) =>
  revokeApiToken(db, merchantId, created[index]!, recorded ? actor : undefined),
);
const costRows = [
  { Path: "createApiToken", ...msPair(create) },
  { Path: "revokeApiToken", ...msPair(revoke) },
];

function msPair({ with: withRecord, without }: { with: number; without: number }) {
  return {
    "without the record, median ms": without.toFixed(2),
    "with it, median ms": withRecord.toFixed(2),
    "the record's cost, ms": (withRecord - without).toFixed(2),
  };
}

// The history: older rows first, so ids grow with time as they do when written by actions.
const span = 30; // seconds between records: 1,000,000 of them cover 347 days
await createPartitions(
  db,
  "security_events",
  new Date(Date.now() - (recordCount * span + 86_400) * 1000),
  new Date(),
);
const seeded = performance.now();
await db.execute(
  sql`insert into security_events (merchant_id, action, actor, ip, user_agent, target, created_at)
      select ${merchantId},
             (array['user.signed_in', 'user.sign_in_failed', 'api_token.created', 'payout_account.changed'])[1 + i % 4],
             ${seed.email}, '203.0.113.' || (i % 250),
             'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
             'target ' || i, now() - i * interval '${sql.raw(String(span))} seconds'
      from generate_series(${recordCount}::int, 1, -1) as i`,
);
await db.execute(sql`analyze security_events`);
const seedSeconds = ((performance.now() - seeded) / 1000).toFixed(1);
const [middle] = await selectRows<{ id: string }>(
  db,
  sql`select id from security_events where merchant_id = ${merchantId}
      order by created_at desc, id desc offset ${Math.floor(recordCount / 2)} limit 1`,
);
await closeDatabase();

const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);
const pageRows: Array<Record<string, string | number>> = [];
let exportRow: Awaited<ReturnType<typeof measureExport>> | undefined;
try {
  const { cookie } = await logInOverHttp(server.baseUrl, seed.email, seed.password);
  const history = "/dashboard/settings/security-history";
  const pages: Array<[string, string]> = [
    ["Dashboard /payments/{id} (one payment)", `/dashboard/payments/${seed.firstPaymentId + 5000}`],
    ["Security history, page 1", history],
    ["Security history, one action (a quarter of them)", `${history}?action=payout_account.changed`],
    [`Security history, the middle (before=${middle!.id})`, `${history}?before=${middle!.id}`],
    ["Security history, the oldest page", `${history}?last=1`],
  ];
  // Every page warmed first (a fresh server compiles each route on its first requests), so the yardstick,
  // measured first, is not the one that pays for it.
  for (const [, route] of pages)
    for (let warm = 0; warm < 5; warm++)
      await (await fetch(`${server.baseUrl}${route}`, { headers: { cookie } })).text();
  for (const [name, route] of pages)
    pageRows.push({ Page: name, ...(await time(`${server.baseUrl}${route}`, { cookie })) });
  exportRow = await measureExport(server, `${history}/export`, cookie);
} finally {
  await server.stop();
}

const report = [
  `Token paths, ${runs} calls each way, taken in turn (PostgreSQL, in process):`,
  markdownTable(costRows),
  `The history page at ${recordCount.toLocaleString("en-US")} records of one merchant (inserted in ${seedSeconds} s), one request at a time:`,
  markdownTable(pageRows),
  "Its CSV:",
  markdownTable(exportRow ? [exportRow] : []),
].join("\n\n");
console.log(report);
