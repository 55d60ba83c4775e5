// `npm run bench:api`: the payments API on PostgreSQL with 1,000,000 payments for one merchant, 64 connections
// over 64 tokens, against a bare node:http + postgres.js server running the same SQL (the ceiling).
// Needs a production build (`npm run build`). BENCH_DATABASE_URL is dropped and recreated.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import { IDLE_MS } from "@/lib/platform/async-context";
import { childPids } from "./cpu";
import { measureDashboard, measureExport } from "./dashboard";
import { measureFilters } from "./filters";
import {
  appServerEnv,
  freshDatabase,
  markdownTable,
  root,
  runLoad,
  SERVER_NODE_FLAGS,
  startScript,
  type LoadResult,
  type RunningServer,
} from "./harness";
import { measureMoneyPages } from "./money-pages";
import { seedBenchmark, type BenchSeed } from "./seed";
import { logInOverHttp } from "../tests/support/http-session";

const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench";
/**
 * Where the servers connect, if not there: a PgBouncer in front of the same database, say (with
 * DATABASE_PREPARED_STATEMENTS=false, which the baseline honours too). Seeding always goes direct.
 */
const serverDatabaseUrl = process.env.BENCH_SERVER_DATABASE_URL ?? databaseUrl;
const paymentCount = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_ONLY=dashboard measures the dashboard pages alone (no API load, no baseline server). */
const dashboardOnly = process.env.BENCH_ONLY === "dashboard";
const connections = 64;
const poolMax = "16";

process.env.DATABASE_URL = databaseUrl;
/**
 * BENCH_REUSE=1 measures again on the database the last run seeded with as many payments (10,000,000 take
 * ten minutes to seed): its seed, tokens included, is kept beside the results (bench/results is not committed).
 * Only for the dashboard and filters: the API scenarios write, so their figures need a fresh seed.
 */
const seedFile = path.join(root, "bench/results", `.seed-${new URL(databaseUrl).pathname.slice(1)}.json`);
const kept =
  process.env.BENCH_REUSE && existsSync(seedFile)
    ? (JSON.parse(readFileSync(seedFile, "utf8")) as BenchSeed)
    : undefined;
const reused = kept?.payments === paymentCount ? kept : undefined;
if (!reused) await freshDatabase(databaseUrl);
const seedStarted = performance.now();
const seed = reused ?? (await seedBenchmark(databaseUrl, paymentCount));
const seedSeconds = ((performance.now() - seedStarted) / 1000).toFixed(1);
mkdirSync(path.dirname(seedFile), { recursive: true });
writeFileSync(seedFile, JSON.stringify(seed));
console.log(
  `${reused ? "Reused" : "Seeded"} ${paymentCount.toLocaleString("en-US")} payments in ${seedSeconds} s`,
);

let externalId = 0;
type Scenario = {
  key: string;
  name: string;
  path: string;
  method?: "POST";
  body?: () => string;
  pathFor?: () => string;
  /** Compared with payment creation on the app, not with the baseline (which serves no refunds). */
  appOnly?: boolean;
};
/** BENCH_SCENARIOS=list,deep,create,refund (the default: all four) picks the scenarios to run. */
const chosen = (process.env.BENCH_SCENARIOS ?? "list,deep,create,refund").split(",");
// The seed's completed payments are those whose sequence number is 0, 1 or 2 modulo 5 (bench/seed.ts), ids
// in sequence order; each refund of 0.01 goes to the next one, so refunds queue on no one payment's lock.
let refundSeq = 0;
const nextCompletedPaymentId = () => {
  refundSeq += refundSeq % 5 === 2 ? 3 : 1;
  return seed.firstPaymentId + refundSeq - 1;
};
const ALL_SCENARIOS: Scenario[] = [
  { key: "list", name: "GET /api/payments", path: "/api/payments" },
  { key: "deep", name: "GET page 10,000 (perPage=100)", path: "/api/payments?page=10000&perPage=100" },
  {
    key: "create",
    name: "POST /api/payments",
    path: "/api/payments",
    method: "POST",
    body: () => JSON.stringify({ amount: 12.5, external_id: `bench_post_${externalId++}` }),
  },
  {
    key: "create-customer",
    name: "POST /api/payments with customer_id",
    path: "/api/payments",
    method: "POST",
    // Its customer's row and daily totals are kept too: 50,000 customers, as the seed has.
    body: () =>
      JSON.stringify({
        amount: 12.5,
        customer_id: `cus_${externalId % 50_000}`,
        external_id: `bench_post_${externalId++}`,
      }),
  },
  {
    key: "refund",
    name: "POST /api/payments/{id}/refunds",
    path: "/api/payments",
    method: "POST",
    pathFor: () => `/api/payments/${nextCompletedPaymentId()}/refunds`,
    body: () => JSON.stringify({ amount: "0.01" }),
    appOnly: true,
  },
];
const SCENARIOS = ALL_SCENARIOS.filter((scenario) => chosen.includes(scenario.key));
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

/** One scenario against one server, after a short warm-up. */
async function runScenario(scenario: Scenario, server: RunningServer): Promise<LoadResult> {
  await runLoad({
    name: "warm-up",
    url: `${server.baseUrl}/api/payments`,
    tokens: seed.tokens,
    connections: 8,
    durationSeconds: 2,
    server,
  });
  return runLoad({
    name: scenario.name,
    method: scenario.method,
    body: scenario.body,
    path: scenario.pathFor,
    url: `${server.baseUrl}${scenario.path}`,
    tokens: seed.tokens,
    connections,
    durationSeconds,
    server,
  });
}

/** The platform's server on a port; `requestLog` false turns the API request log off. */
const appServer = (port: number, requestLog: boolean) =>
  startScript(
    "scripts/server.ts",
    appServerEnv(serverDatabaseUrl, port, {
      DATABASE_POOL_MAX: poolMax,
      WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY ?? "1",
      API_REQUEST_LOG: String(requestLog),
    }),
    port,
    "/api/openapi.json",
    SERVER_NODE_FLAGS,
  );

// All servers run side by side and take turns, round after round: the machine's drift over a run (table
// growth, autovacuum, other load) falls on each of them alike instead of on whichever ran last.
const servers: Array<{ label: string; server: RunningServer }> = [
  { label: "app", server: await appServer(4100, true) },
];
// BENCH_COMPARE_REQUEST_LOG=1: a second app server with the request log off.
if (process.env.BENCH_COMPARE_REQUEST_LOG && !dashboardOnly)
  servers.push({ label: "app without request log", server: await appServer(4300, false) });
if (!dashboardOnly)
  servers.push({
    label: "baseline",
    // The app's environment (a create encrypts its checkout token with the keys it names).
    server: await startScript(
      "bench/baseline-server.ts",
      appServerEnv(serverDatabaseUrl, 4200, { DATABASE_POOL_MAX: poolMax }),
      4200,
      "/",
    ),
  });
// The app on PostgreSQL is a primary, its dashboard process and its API processes: counted after the load.
const processCounts = new Map<string, number>();
const results = new Map<string, LoadResult[][]>(servers.map(({ label }) => [label, SCENARIOS.map(() => [])]));
let dashboard: Awaited<ReturnType<typeof measureDashboard>>;
let listWithStoresOn: LoadResult | undefined;
const list = SCENARIOS.find((scenario) => scenario.key === "list");
let filterRows: Array<Record<string, string | number>> = [];
let moneyRows: Array<Record<string, string | number>> = [];
let transactionsExportRow: Awaited<ReturnType<typeof measureExport>> | undefined;
try {
  dashboard = await measureDashboard(servers[0]!.server, seed.email, seed.password, seed.firstPaymentId);
  const { cookie } = await logInOverHttp(servers[0]!.server.baseUrl, seed.email, seed.password);
  filterRows = await measureFilters(servers[0]!.server.baseUrl, seed, cookie);
  moneyRows = await measureMoneyPages(servers[0]!.server.baseUrl, seed, cookie);
  // Every balance transaction as CSV, to compare with the payments' rate above.
  if (seed.ledgerBackfillSeconds !== undefined)
    transactionsExportRow = await measureExport(
      servers[0]!.server,
      "/dashboard/balance/transactions/export",
      cookie,
    );
  // The same pass on the app without the request log, so both app processes have loaded and run the
  // dashboard (a production server serves both): without it the log-off process was the leaner one, and
  // the difference was counted as the log's cost.
  for (const { label, server } of servers)
    if (label === "app without request log")
      await measureDashboard(server, seed.email, seed.password, seed.firstPaymentId);
  // Right after a dashboard page, the stores Next.js entered (and with them Node 20's async hooks) are on:
  // the list once in that state, then the rounds once the server has turned them off (async-context.ts).
  const dashboardDone = performance.now();
  if (list && !dashboardOnly) {
    listWithStoresOn = await runScenario(list, servers[0]!.server);
    console.log(`app right after the dashboard: ${JSON.stringify(listWithStoresOn)}`);
    await setTimeout(Math.max(0, dashboardDone + IDLE_MS + 1000 - performance.now()));
  }
  for (let round = 1; round <= (dashboardOnly ? 0 : rounds); round++)
    for (const [index, scenario] of SCENARIOS.entries())
      for (const { label, server } of servers) {
        if (scenario.appOnly && label !== "app") continue;
        const result = await runScenario(scenario, server);
        // A refusal is answered faster than the request it refuses: a figure with any is not this scenario's.
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${label} refused requests of ${scenario.name}: ${JSON.stringify(result)}`);
        results.get(label)![index]!.push(result);
        console.log(`round ${round} ${label}: ${JSON.stringify(result)}`);
      }
  for (const { label, server } of servers)
    processCounts.set(label, 1 + childPids(server.process.pid!).length);
} finally {
  await Promise.all(servers.map(({ server }) => server.stop()));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
type MedianField = "requestsPerSecond" | "p50" | "p99" | "serverCpuUs" | "databaseCpuUs";
const medianOf = (label: string, index: number, field: MedianField) =>
  median((results.get(label)?.[index] ?? []).map((result) => result[field]));
const peakRss = (label: string) => Math.max(0, ...(results.get(label)?.flat() ?? []).map((r) => r.memoryMb));

const createIndex = SCENARIOS.findIndex((scenario) => scenario.key === "create");
const rows = (dashboardOnly ? [] : SCENARIOS).map(({ name, appOnly }, index) => {
  // A refund is measured against payment creation on the app, in the same rounds; the rest against the
  // bare baseline.
  const against = appOnly ? { label: "app", index: createIndex } : { label: "baseline", index };
  if (against.index < 0) throw new Error("BENCH_SCENARIOS: refund is compared with create; choose both.");
  const app = (field: MedianField) => medianOf("app", index, field);
  const baseline = (field: MedianField) => medianOf(against.label, against.index, field);
  const withoutLog = results.has("app without request log")
    ? medianOf("app without request log", index, "requestsPerSecond")
    : undefined;
  const roundRatios = results
    .get("app")!
    [index]!.map(
      (result, round) =>
        result.requestsPerSecond / results.get(against.label)![against.index]![round]!.requestsPerSecond,
    );
  return {
    Scenario: name,
    "compared with": appOnly ? "POST /api/payments on the app" : "baseline",
    "req/s": app("requestsPerSecond"),
    "p50 ms": app("p50"),
    "p99 ms": app("p99"),
    "non-2xx": results.get("app")![index]!.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
    "baseline req/s": baseline("requestsPerSecond"),
    "baseline p50/p99 ms": `${baseline("p50")} / ${baseline("p99")}`,
    ratio: (app("requestsPerSecond") / baseline("requestsPerSecond")).toFixed(2),
    // Each round's two servers ran back to back, under the same conditions; the ratio of the medians
    // above pairs one round's app with another's baseline when the machine's speed drifts between rounds.
    "median of round ratios": median(roundRatios).toFixed(2),
    "ratio per round": roundRatios.map((ratio) => ratio.toFixed(2)).join(" "),
    // Steadier than requests per second on this machine, and it says where the difference is.
    "CPU µs/req, server: app / baseline": `${app("serverCpuUs")} / ${baseline("serverCpuUs")}`,
    "CPU µs/req, database: app / baseline": `${app("databaseCpuUs")} / ${baseline("databaseCpuUs")}`,
    ...(withoutLog
      ? {
          "log off req/s": withoutLog,
          "log cost": `${(100 * (1 - app("requestsPerSecond") / withoutLog)).toFixed(1)}%`,
        }
      : {}),
  };
});
const memory = servers.map(({ label, server }) => ({
  Server: label,
  "peak RSS MB, largest process (whole run)": Math.max(server.peakRssMb(), peakRss(label)),
  "peak RSS MB, all its processes": server.peakTotalRssMb(),
  processes: processCounts.get(label)!,
}));
const report = [
  `Seeded ${paymentCount.toLocaleString("en-US")} payments in ${seedSeconds} s; ${connections} connections over ${seed.tokens.length} tokens, ${durationSeconds} s per scenario and server, ${rounds} rounds taken in turn (medians shown), pool ${poolMax} per process, server flags ${SERVER_NODE_FLAGS.join(" ") || "none"}.`,
  ...(dashboardOnly ? [] : [markdownTable(rows)]),
  ...(listWithStoresOn && list
    ? [
        `GET /api/payments within ${IDLE_MS / 1000} s of a dashboard page (Next.js's stores on, and Node 20's async hooks with them), measured once before the rounds: ${listWithStoresOn.requestsPerSecond} req/s, ${(listWithStoresOn.requestsPerSecond / medianOf("baseline", SCENARIOS.indexOf(list), "requestsPerSecond")).toFixed(2)} of the baseline's median.`,
      ]
    : []),
  "Memory (RSS, sampled every 200 ms from the dashboard measurement to the last round):",
  markdownTable(memory),
  "Dashboard, one request at a time (time to the full response):",
  markdownTable(dashboard.pages),
  "CSV exports (every payment; with BENCH_LEDGER=1 every balance transaction):",
  markdownTable([dashboard.exportRow, ...(transactionsExportRow ? [transactionsExportRow] : [])]),
  "Filtered lists and customers, one request at a time (bench/filters.ts):",
  markdownTable(filterRows),
  `Currencies, disputes and the balance, one request at a time (bench/money-pages.ts)${seed.ledgerBackfillSeconds === undefined ? "" : `; the ledger's backfill posted the seeded payments in ${seed.ledgerBackfillSeconds} s`}:`,
  markdownTable(moneyRows),
].join("\n\n");
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, `bench/results/${dashboardOnly ? "dashboard" : "api"}.md`), `${report}\n`);
console.log(`\n${report}`);
