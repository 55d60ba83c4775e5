// The primary's CPU per dashboard list request, with and without a read replica: a merchant with 1,000,000
// payments, its Payments page (page 1, a status filter, a search) and the Overview requested over real HTTP
// with a logged-in session, by one server without DATABASE_REPLICA_URLS and one with the local hot standby
// (scripts/ci-standby.sh). CPU is read from /proc: the primary cluster's processes and the standby's apart.
// Usage: npm run bench:replica (PostgreSQL on 127.0.0.1:5432 and the standby on 5433).
import "../scripts/load-env";
import postgres from "postgres";
import { clusterCpuMicros } from "./cpu";
import { appServerEnv, freshDatabase, markdownTable, SERVER_NODE_FLAGS, startScript } from "./harness";
import { seedBenchmark } from "./seed";
import { logInOverHttp } from "../tests/support/http-session";

const database = "payments_bench_replica";
const primaryUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
const standbyUrl = `postgres://postgres@127.0.0.1:${process.env.STANDBY_PORT ?? 5433}/${database}`;
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const PAGES = [
  "/dashboard/payments",
  "/dashboard/payments?status=failed",
  "/dashboard/payments?q=cus_4242",
  "/dashboard",
];

process.env.DATABASE_URL = primaryUrl;
await freshDatabase(primaryUrl);
const seed = await seedBenchmark(primaryUrl, Number(process.env.BENCH_PAYMENTS ?? 1_000_000), 1);

// The standby has the seed before anything is measured.
const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
const standby = postgres(standbyUrl, { max: 1, onnotice: () => {} });
const [{ lsn }] = (await primary`select pg_current_wal_lsn()::text as lsn`) as unknown as [{ lsn: string }];
for (;;) {
  const [row] = await standby<
    { caught: boolean }[]
  >`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as caught`;
  if (row!.caught) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const rows: Array<Record<string, string | number>> = [];
for (const [label, overrides] of [
  ["no replica", {}],
  ["with the standby", { DATABASE_REPLICA_URLS: standbyUrl }],
] as const) {
  const port = label === "no replica" ? 4410 : 4420;
  const server = await startScript(
    "scripts/server.ts",
    appServerEnv(primaryUrl, port, overrides),
    port,
    "/api/openapi.json",
    SERVER_NODE_FLAGS,
  );
  try {
    const { cookie } = await logInOverHttp(server.baseUrl, seed.email, seed.password);
    // Warm: the pools' connections, the replica watcher's first answers, the pages' plans.
    for (const page of PAGES)
      await fetch(`${server.baseUrl}${page}`, { headers: { cookie } }).then((r) => r.text());
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = { primary: clusterCpuMicros("main"), standby: clusterCpuMicros("standby") };
    const started = performance.now();
    for (let index = 0; index < requests; index++) {
      const response = await fetch(`${server.baseUrl}${PAGES[index % PAGES.length]}`, {
        headers: { cookie },
      });
      await response.text();
      if (response.status !== 200) throw new Error(`${response.url} answered ${response.status}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const primaryMs = (clusterCpuMicros("main") - before.primary) / 1000 / requests;
    const standbyMs = (clusterCpuMicros("standby") - before.standby) / 1000 / requests;
    rows.push({
      Server: label,
      Requests: requests,
      "Primary CPU ms / request": primaryMs.toFixed(2),
      "Standby CPU ms / request": standbyMs.toFixed(2),
      "Requests / s": Math.round(requests / seconds),
    });
  } finally {
    await server.stop();
  }
}
await primary.end();
await standby.end();
console.log(`\n${seed.payments.toLocaleString("en-US")} payments; pages in turn: ${PAGES.join(", ")}\n`);
console.log(markdownTable(rows));
