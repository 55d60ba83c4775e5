// "Any node" on Citus (docs/scaling.md): payment creation over 64 merchants, and a list page, served by an API
// process given the coordinator, by one given a worker, and by one on plain PostgreSQL, with the same build,
// seed and load, taking turns round after round. Besides requests per second it reports each database
// server's CPU per request: the coordinator's share is what a process on a worker takes off the path.
//   scripts/citus-cluster.sh up   (the local cluster: a coordinator on 6100, workers on 6101 and 6102)
//   npm run bench:any-node        (BENCH_PAYMENTS, BENCH_SECONDS, BENCH_ROUNDS as bench:api)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { coordinatorPort, nodesCpuMicros, seedPostgresAndCitus, startApp, workerPorts } from "./citus-setup";
import { markdownTable, root, runLoad, type RunningServer } from "./harness";

const paymentCount = Number(process.env.BENCH_PAYMENTS ?? 20_000);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = 64;

// The tokens spread over 64 merchants (bench/seed.ts), so creations are many merchants' on both workers.
process.env.BENCH_TOKEN_MERCHANTS = "64";
const { postgresUrl, nodeUrl, postgresSeed, citusSeed } = await seedPostgresAndCitus(
  "payments_bench_any_node",
  paymentCount,
);

/** CPU so far of each database server: plain PostgreSQL's, the coordinator's and the workers' together. */
const cpuNow = () => {
  const { postgres, nodes } = nodesCpuMicros();
  return {
    postgres,
    coordinator: nodes[coordinatorPort]!,
    workers: workerPorts.reduce((sum, port) => sum + nodes[port]!, 0),
  };
};

// BENCH_SERVERS=postgres,coordinator (an older build, say) leaves out the process on a worker.
const chosenServers = (process.env.BENCH_SERVERS ?? "postgres,coordinator,worker").split(",");
const servers: Array<{ label: string; seed: typeof citusSeed; server: RunningServer }> = [];
if (chosenServers.includes("postgres"))
  servers.push({ label: "PostgreSQL", seed: postgresSeed, server: await startApp(postgresUrl, 4100) });
if (chosenServers.includes("coordinator"))
  servers.push({
    label: "Citus, via the coordinator",
    seed: citusSeed,
    server: await startApp(nodeUrl(coordinatorPort), 4101),
  });
if (chosenServers.includes("worker"))
  servers.push({
    label: "Citus, via a worker (Any node)",
    seed: citusSeed,
    server: await startApp(nodeUrl(workerPorts[0]!), 4102),
  });
const scenarios = [
  {
    name: "POST /api/payments, 64 merchants",
    method: "POST" as const,
    path: "/api/payments",
    body: () => JSON.stringify({ amount: "12.34" }),
  },
  { name: "GET /api/payments (page 1)", method: "GET" as const, path: "/api/payments" },
];

type Measured = {
  rps: number;
  p50: number;
  p99: number;
  refused: number;
  serverUs: number;
  databaseUs: number;
  coordinatorUs: number;
  workersUs: number;
};
const results = new Map<string, Measured[]>();
try {
  for (let round = 1; round <= rounds; round++)
    for (const scenario of scenarios)
      for (const { label, seed, server } of servers) {
        const load = (seconds: number, connectionCount: number) =>
          runLoad({
            name: scenario.name,
            url: `${server.baseUrl}${scenario.path}`,
            method: scenario.method,
            body: scenario.body,
            tokens: seed.tokens,
            connections: connectionCount,
            durationSeconds: seconds,
            server,
          });
        await load(2, 8);
        const before = cpuNow();
        const result = await load(durationSeconds, connections);
        const after = cpuNow();
        const requests = Math.max(1, result.requestsPerSecond * durationSeconds);
        const perRequest = (key: keyof typeof before) => Math.round((after[key] - before[key]) / requests);
        const measured: Measured = {
          rps: result.requestsPerSecond,
          p50: result.p50,
          p99: result.p99,
          refused: result.non2xx + result.errors,
          serverUs: result.serverCpuUs,
          databaseUs:
            label === "PostgreSQL"
              ? perRequest("postgres")
              : perRequest("coordinator") + perRequest("workers"),
          coordinatorUs: perRequest("coordinator"),
          workersUs: perRequest("workers"),
        };
        const key = `${scenario.name}\u0000${label}`;
        results.set(key, [...(results.get(key) ?? []), measured]);
        console.log(`round ${round} ${label}, ${scenario.name}: ${JSON.stringify(measured)}`);
      }
} finally {
  await Promise.all(servers.map(({ server }) => server.stop()));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows = scenarios.flatMap((scenario) =>
  servers.map(({ label }) => {
    const each = results.get(`${scenario.name}\u0000${label}`)!;
    const postgres = results.get(`${scenario.name}\u0000PostgreSQL`)!;
    const of = (field: keyof Measured) => median(each.map((measured) => measured[field]));
    return {
      Scenario: scenario.name,
      "API process on": label,
      "req/s (rounds)": each.map((measured) => measured.rps).join(", "),
      "of PostgreSQL (per round)": each
        .map((measured, round) => (measured.rps / postgres[round]!.rps).toFixed(2))
        .join(", "),
      "p50 / p99 ms": `${of("p50")} / ${of("p99")}`,
      refused: each.reduce((sum, measured) => sum + measured.refused, 0),
      "app CPU µs/req": of("serverUs"),
      "database CPU µs/req": of("databaseUs"),
      "coordinator µs/req": label === "PostgreSQL" ? "" : of("coordinatorUs"),
      "workers µs/req": label === "PostgreSQL" ? "" : of("workersUs"),
    };
  }),
);
const report = [
  `${paymentCount.toLocaleString("en-US")} payments of one merchant and 63 empty ones; ${connections} connections over 64 tokens (one per merchant), ${durationSeconds} s per scenario and server, ${rounds} rounds taken in turn, pool 16, one API process each.`,
  markdownTable(rows),
].join("\n\n");
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/any-node.md"), `${report}\n`);
console.log(`\n${report}`);
