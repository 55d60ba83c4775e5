// Citus per node (docs/scaling.md, "Per node"): what a creation, a settle, a refund and a list page cost each
// database node in CPU, against the same request on one PostgreSQL, and what that projects to for 2, 4 and 8
// worker machines. The app runs on plain PostgreSQL, on the coordinator and on a worker ("Any node"), in turn,
// round after round, with the same build, seed and load; each node's CPU is read from /proc.
//   CITUS_FSYNC=on scripts/citus-cluster.sh up   (durable nodes, as the PostgreSQL compared with them)
//   npm run bench:per-node    (BENCH_PAYMENTS 20,000, BENCH_SECONDS 10, BENCH_ROUNDS 2, BENCH_REQUESTS all)
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import postgres from "postgres";
import {
  coordinatorPort,
  merchantWorkerPort,
  nodesCpuMicros,
  seedPostgresAndCitus,
  shownSetting,
  startApp,
  workerPorts,
} from "./citus-setup";
import { markdownTable, root, runLoad, type RunningServer } from "./harness";
import type { BenchSeed } from "./seed";

const paymentCount = Number(process.env.BENCH_PAYMENTS ?? 20_000);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const cores = availableParallelism();
process.env.BENCH_TOKEN_MERCHANTS = "64";
const bench = await seedPostgresAndCitus("payments_bench_per_node", paymentCount);

// Both sides as durable as production: a ratio against a cluster without fsync flatters it.
const durability = [
  ["PostgreSQL", bench.postgresUrl],
  ...[coordinatorPort, ...workerPorts].map((port) => [`Citus :${port}`, bench.nodeUrl(port)]),
].map(
  ([label, url]) =>
    `${label} fsync ${shownSetting(url!, "fsync")}, synchronous_commit ${shownSetting(url!, "synchronous_commit")}`,
);

// BENCH_PLAN_CACHE_MODE=auto measures Citus as it was before db/citus.ts set force_custom_plan (docs/scaling.md,
// "Per node"): the sessions' generic plans, and the local plans Citus keeps a copy of at each call.
if (process.env.BENCH_PLAN_CACHE_MODE) {
  const sql = postgres(bench.nodeUrl(coordinatorPort), { max: 1, onnotice: () => {} });
  await sql.unsafe(
    `alter database payments_bench_per_node set plan_cache_mode = ${process.env.BENCH_PLAN_CACHE_MODE}`,
  );
  await sql.end();
}
const planCacheMode = shownSetting(bench.nodeUrl(workerPorts[0]!), "plan_cache_mode");

// The one merchant of the seed whose payments the settles, refunds and pages are of, and its worker.
const ownWorker = await merchantWorkerPort(bench.nodeUrl(coordinatorPort), bench.citusSeed.merchantId);

type Side = {
  label: string;
  seed: BenchSeed;
  url: string;
  server: RunningServer;
  database: "postgres" | "citus";
};
const sides: Side[] = [
  {
    label: "PostgreSQL",
    seed: bench.postgresSeed,
    url: bench.postgresUrl,
    database: "postgres",
    server: await startApp(bench.postgresUrl, 4200),
  },
  {
    label: "Citus, app via the coordinator",
    seed: bench.citusSeed,
    url: bench.nodeUrl(coordinatorPort),
    database: "citus",
    server: await startApp(bench.nodeUrl(coordinatorPort), 4201),
  },
  {
    label: "Citus, app on the merchant's worker (Any node)",
    seed: bench.citusSeed,
    url: bench.nodeUrl(ownWorker),
    database: "citus",
    server: await startApp(bench.nodeUrl(ownWorker), 4202),
  },
];

/** `count` pending payments of the seed's merchant, made in one statement (the settles' supply). */
async function pendingPayments(url: string, merchantId: number, count: number): Promise<number[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [sequence] = await sql<[{ last: string }]>`update payment_sequences
      set payments_count = payments_count + ${count} where merchant_id = ${merchantId} returning payments_count as last`;
    const first = Number(sequence.last) - count;
    const rows = await sql<Array<{ id: string }>>`
      insert into payments (merchant_id, merchant_seq, amount, currency, status, source, created_at, updated_at)
      select ${merchantId}::bigint, ${first}::bigint + g, 10.00, 'EUR', 'pending', 'api', now(), now()
      from generate_series(1, ${count}::int) as g returning id`;
    return rows.map((row) => Number(row.id));
  } finally {
    await sql.end();
  }
}

/** The seed's merchant's completed payments with something left to refund. */
async function refundablePayments(url: string, merchantId: number): Promise<number[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<Array<{ id: string }>>`select id from payments
      where merchant_id = ${merchantId} and status = 'completed' and currency in ('EUR', 'USD')
        and amount - amount_refunded >= 1 order by id`;
    return rows.map((row) => Number(row.id));
  } finally {
    await sql.end();
  }
}

type Scenario = {
  name: string;
  method: "GET" | "POST";
  connections: number;
  /** The tokens and request paths of one run against a side. */
  prepare: (side: Side) => Promise<{ tokens: string[]; path?: () => string; body?: () => string }>;
};
/** A POST to each of the seed's merchant's payments in turn (`ids`, read or made per run), with its token. */
const eachPayment =
  (ids: (side: Side) => Promise<number[]>, action: (id: number) => string, body: object) =>
  async (side: Side) => {
    const list = await ids(side);
    let next = 0;
    return {
      tokens: [side.seed.tokens[0]!],
      path: () => action(list[next++ % list.length]!),
      body: () => JSON.stringify(body),
    };
  };
const allScenarios: Scenario[] = [
  {
    name: "create (64 merchants)",
    method: "POST",
    connections: 64,
    prepare: (side) =>
      Promise.resolve({
        tokens: side.seed.tokens,
        path: () => "/api/payments",
        body: () => JSON.stringify({ amount: "12.34" }),
      }),
  },
  {
    name: "settle (one merchant)",
    method: "POST",
    connections: 16,
    prepare: eachPayment(
      (side) => pendingPayments(side.url, side.seed.merchantId, 8_000),
      (id) => `/api/test-helpers/payments/${id}/settle`,
      { outcome: "completed" },
    ),
  },
  {
    name: "refund 0.01 (one merchant)",
    method: "POST",
    connections: 16,
    prepare: eachPayment(
      (side) => refundablePayments(side.url, side.seed.merchantId),
      (id) => `/api/payments/${id}/refunds`,
      { amount: "0.01" },
    ),
  },
  {
    name: "list page 1 (one merchant)",
    method: "GET",
    connections: 64,
    prepare: (side) => Promise.resolve({ tokens: [side.seed.tokens[0]!], path: () => "/api/payments" }),
  },
];

// BENCH_REQUESTS=create,list runs some of them (the names' first words: create, settle, refund, list).
const chosen = process.env.BENCH_REQUESTS?.split(",");
const scenarios = allScenarios.filter((scenario) => !chosen || chosen.includes(scenario.name.split(" ")[0]!));

type Measured = {
  rps: number;
  refused: number;
  app: number;
  postgres: number;
  coordinator: number;
  workers: number;
};
const results = new Map<string, Measured[]>();
try {
  for (let round = 1; round <= rounds; round++)
    for (const scenario of scenarios)
      for (const side of sides) {
        const load = async (seconds: number, connections: number) => {
          const request = await scenario.prepare(side);
          return runLoad({
            name: scenario.name,
            url: `${side.server.baseUrl}/api/payments`,
            method: scenario.method,
            connections,
            durationSeconds: seconds,
            server: side.server,
            ...request,
          });
        };
        await load(2, 4);
        const before = nodesCpuMicros();
        const result = await load(durationSeconds, scenario.connections);
        const after = nodesCpuMicros();
        const requests = Math.max(1, result.requestsPerSecond * durationSeconds);
        const per = (micros: number) => Math.round(micros / requests);
        const measured: Measured = {
          rps: result.requestsPerSecond,
          refused: result.non2xx + result.errors,
          app: result.serverCpuUs,
          postgres: per(after.postgres - before.postgres),
          coordinator: per(after.nodes[coordinatorPort]! - before.nodes[coordinatorPort]!),
          workers: per(workerPorts.reduce((sum, port) => sum + after.nodes[port]! - before.nodes[port]!, 0)),
        };
        const key = `${scenario.name}\u0000${side.label}`;
        results.set(key, [...(results.get(key) ?? []), measured]);
        console.log(`round ${round} ${side.label}, ${scenario.name}: ${JSON.stringify(measured)}`);
      }
} finally {
  await Promise.all(sides.map(({ server }) => server.stop()));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const of = (scenario: Scenario, side: Side, field: keyof Measured) =>
  median(results.get(`${scenario.name}\u0000${side.label}`)!.map((measured) => measured[field]));
const postgresSide = sides[0]!;
const perNode = scenarios.flatMap((scenario) =>
  sides.map((side) => {
    const each = results.get(`${scenario.name}\u0000${side.label}`)!;
    const baseline = of(scenario, postgresSide, "postgres");
    const workers = of(scenario, side, "workers");
    const coordinator = of(scenario, side, "coordinator");
    return {
      Request: scenario.name,
      "App on": side.label,
      "req/s (rounds)": each.map((measured) => measured.rps).join(", "),
      refused: each.reduce((sum, measured) => sum + measured.refused, 0),
      "app µs": of(scenario, side, "app"),
      "PostgreSQL µs": side.database === "postgres" ? baseline : "",
      "workers µs (× PG)": side.database === "citus" ? `${workers} (${(workers / baseline).toFixed(2)})` : "",
      "coordinator µs (× PG)":
        side.database === "citus" ? `${coordinator} (${(coordinator / baseline).toFixed(2)})` : "",
    };
  }),
);

// The projection: database CPU only, each machine with this one's cores busy all the time, the merchants spread
// evenly over the workers, the app's processes on machines of their own (they scale out alike on both), and the
// network free. One PostgreSQL serves cores / its CPU a request; N workers serve N × cores / theirs, unless the
// one coordinator runs out first (with Any node it sees only what stays on it: the rate limit's count).
const anyNode = sides[2]!;
const projection = scenarios.map((scenario) => {
  const postgresRate = (cores * 1e6) / of(scenario, postgresSide, "postgres");
  const coordinatorRate = (cores * 1e6) / Math.max(1, of(scenario, anyNode, "coordinator"));
  const workersRate = (machines: number) =>
    Math.round(Math.min((machines * cores * 1e6) / of(scenario, anyNode, "workers"), coordinatorRate));
  return {
    Request: scenario.name,
    "one PostgreSQL": Math.round(postgresRate),
    "2 workers": workersRate(2),
    "4 workers": workersRate(4),
    "8 workers": workersRate(8),
    "coordinator's ceiling": Math.round(coordinatorRate),
  };
});

const report = [
  `${paymentCount.toLocaleString("en-US")} payments of one merchant and 63 more merchants; ${durationSeconds} s per request type and side, ${rounds} rounds taken in turn, one API process with a pool of 16 per side; medians of the rounds. The merchant's worker is :${ownWorker}.`,
  `Durability: ${durability.join("; ")}. Citus's plan_cache_mode: ${planCacheMode}.`,
  "### CPU per request, per node",
  markdownTable(perNode),
  `### Projected requests per second (database CPU, ${cores} cores a machine)`,
  markdownTable(projection),
].join("\n\n");
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/per-node.md"), `${report}\n`);
console.log(`\n${report}`);
