// `npm run bench:api`: the payments API on PostgreSQL with 1,000,000 payments for one merchant, 64 connections
// over 64 tokens, against a bare node:http + postgres.js server running the same SQL (the ceiling).
// Needs a production build (`npm run build`). BENCH_DATABASE_URL is dropped and recreated.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { measureDashboard } from "./dashboard";
import {
  freshDatabase,
  markdownTable,
  root,
  runLoad,
  startScript,
  type LoadResult,
  type RunningServer,
} from "./harness";
import { seedBenchmark } from "./seed";

const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench";
const paymentCount = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_ONLY=dashboard measures the dashboard pages alone (no API load, no baseline server). */
const dashboardOnly = process.env.BENCH_ONLY === "dashboard";
const connections = 64;
const poolMax = "16";

process.env.DATABASE_URL = databaseUrl;
await freshDatabase(databaseUrl);
const seedStarted = performance.now();
const seed = await seedBenchmark(databaseUrl, paymentCount);
const seedSeconds = ((performance.now() - seedStarted) / 1000).toFixed(1);
console.log(`Seeded ${paymentCount.toLocaleString("en-US")} payments in ${seedSeconds} s`);

const baseEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_MAX: poolMax,
  NODE_ENV: "production" as const,
  NEXT_TELEMETRY_DISABLED: "1",
};
let externalId = 0;
type Scenario = { name: string; path: string; method?: "POST"; body?: () => string };
const SCENARIOS: Scenario[] = [
  { name: "GET /api/payments", path: "/api/payments" },
  { name: "GET page 10,000 (perPage=100)", path: "/api/payments?page=10000&perPage=100" },
  {
    name: "POST /api/payments",
    path: "/api/payments",
    method: "POST",
    body: () => JSON.stringify({ amount: 12.5, external_id: `bench_post_${externalId++}` }),
  },
];
const scenarios = (server: RunningServer) =>
  SCENARIOS.map(
    ({ path, ...scenario }) =>
      () =>
        runLoad({
          ...scenario,
          url: `${server.baseUrl}${path}`,
          tokens: seed.tokens,
          connections,
          durationSeconds,
          server,
        }),
  );

let dashboard: Awaited<ReturnType<typeof measureDashboard>> | undefined;

async function measure(label: string, server: RunningServer): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  try {
    if (label === "app")
      dashboard = await measureDashboard(server, seed.email, seed.password, seed.firstPaymentId);
    for (const scenario of dashboardOnly ? [] : scenarios(server)) {
      await runLoad({
        name: "warm-up",
        url: `${server.baseUrl}/api/payments`,
        tokens: seed.tokens,
        connections: 8,
        durationSeconds: 2,
        server,
      });
      const result = await scenario();
      results.push(result);
      console.log(`${label}: ${JSON.stringify(result)}`);
    }
  } finally {
    await server.stop();
  }
  return results;
}

/** The platform's server on a port; `requestLog` false turns the API request log off. */
const appServer = (port: number, requestLog: boolean) =>
  startScript(
    "scripts/server.ts",
    {
      ...baseEnv,
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY ?? "1",
      AUTH_SECRET: randomBytes(33).toString("base64"),
      ENCRYPTION_KEYS: randomBytes(32).toString("base64"),
      WORKER_MODE: "off",
      PAYMENTS_AUTO_SETTLE_MS: "0",
      API_REQUEST_LOG: String(requestLog),
    },
    port,
    "/api/openapi.json",
  );
const app = await measure("app", await appServer(4100, true));
// BENCH_COMPARE_REQUEST_LOG=1: the same scenarios with the request log off, in the same run.
const appWithoutLog =
  process.env.BENCH_COMPARE_REQUEST_LOG && !dashboardOnly
    ? await measure("app without request log", await appServer(4300, false))
    : [];
const baseline = dashboardOnly
  ? []
  : await measure(
      "baseline",
      await startScript("bench/baseline-server.ts", { ...baseEnv, PORT: "4200" }, 4200, "/"),
    );

const rows = app.map((result, index) => {
  const ceiling = baseline[index]!;
  return {
    Scenario: result.name,
    "req/s": result.requestsPerSecond,
    "p50 ms": result.p50,
    "p99 ms": result.p99,
    "non-2xx": result.non2xx + result.errors,
    "server RSS MB": result.memoryMb,
    "baseline req/s": ceiling.requestsPerSecond,
    "baseline p50/p99 ms": `${ceiling.p50} / ${ceiling.p99}`,
    "baseline RSS MB": ceiling.memoryMb,
    ratio: (result.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2),
    ...(appWithoutLog[index]
      ? {
          "log off req/s": appWithoutLog[index].requestsPerSecond,
          "log cost": `${(100 * (1 - result.requestsPerSecond / appWithoutLog[index].requestsPerSecond)).toFixed(1)}%`,
        }
      : {}),
  };
});
const report = [
  `Seeded ${paymentCount.toLocaleString("en-US")} payments in ${seedSeconds} s; ${connections} connections over ${seed.tokens.length} tokens, ${durationSeconds} s per scenario, pool ${poolMax} per process.`,
  ...(dashboardOnly ? [] : [markdownTable(rows)]),
  "Dashboard, one request at a time (time to the full response):",
  markdownTable(dashboard!.pages),
  "CSV export of every payment:",
  markdownTable([dashboard!.exportRow]),
].join("\n\n");
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, `bench/results/${dashboardOnly ? "dashboard" : "api"}.md`), `${report}\n`);
console.log(`\n${report}`);
