// `npm run bench:profile`: a CPU profile of one server process under the list (or create) load, to find
// where its time goes. Writes a .cpuprofile under bench/results/ (open it in Chrome DevTools) and prints
// the functions with the most self time. BENCH_PROFILE_SCENARIO=create profiles POST /api/payments.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import { IDLE_MS } from "@/lib/platform/async-context";
import { measureDashboard } from "./dashboard";
import { appServerEnv, freshDatabase, root, runLoad, SERVER_NODE_FLAGS, startScript } from "./harness";
import { seedBenchmark } from "./seed";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_profile";
const create = process.env.BENCH_PROFILE_SCENARIO === "create";
const requestLog = process.env.API_REQUEST_LOG ?? "true";
const directory = path.join(root, "bench/results/profile");
rmSync(directory, { recursive: true, force: true });
mkdirSync(directory, { recursive: true });

// The seed migrates through the app's own client, which reads DATABASE_URL.
process.env.DATABASE_URL = databaseUrl;
await freshDatabase(databaseUrl);
const seed = await seedBenchmark(databaseUrl, Number(process.env.BENCH_PAYMENTS ?? 100_000));
const port = 4500;
// BENCH_PROFILE_SERVER=baseline profiles the bare server instead, to compare function by function.
const baseline = process.env.BENCH_PROFILE_SERVER === "baseline";
const server = await startScript(
  baseline ? "bench/baseline-server.ts" : "scripts/server.ts",
  appServerEnv(databaseUrl, port, { DATABASE_POOL_MAX: "16", API_REQUEST_LOG: requestLog }),
  port,
  baseline ? "/" : "/api/openapi.json",
  // BENCH_PROFILE_NODE_FLAGS adds flags, e.g. --no-turbo-inlining to charge each function its own time.
  [
    ...SERVER_NODE_FLAGS,
    ...(process.env.BENCH_PROFILE_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
    "--cpu-prof",
    `--cpu-prof-dir=${directory}`,
  ],
);
let externalId = 0;
let requests = 0;
try {
  // BENCH_PROFILE_DASHBOARD=1: the dashboard pass first, as bench:api does, so the profile shows a process
  // that has also served Next.js pages (the stores Next.js entered, and Node 20's async hooks, are on).
  if (process.env.BENCH_PROFILE_DASHBOARD === "1" && !baseline) {
    await measureDashboard(server, seed.email, seed.password, seed.firstPaymentId);
    // BENCH_PROFILE_DASHBOARD_IDLE=1: then until the server has turned those stores off again.
    if (process.env.BENCH_PROFILE_DASHBOARD_IDLE === "1") await setTimeout(IDLE_MS + 1000);
  }
  const result = await runLoad({
    name: create ? "POST /api/payments" : "GET /api/payments",
    url: `${server.baseUrl}/api/payments`,
    tokens: seed.tokens,
    connections: 64,
    durationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
    server,
    ...(create
      ? {
          method: "POST" as const,
          body: () => JSON.stringify({ amount: 12.5, external_id: `profile_${externalId++}` }),
        }
      : {}),
  });
  console.log(JSON.stringify(result));
  requests = result.requestsPerSecond * Number(process.env.BENCH_SECONDS ?? 10);
} finally {
  await server.stop();
}

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
// One profile per process: on PostgreSQL `npm start` is a primary, its API processes and the dashboard's
// (lib/platform/web-cluster.ts), each writing its own. Their self time is summed: the server's, as a whole.
// The primary can exit before its API processes have written theirs: wait for them a little.
const profiles = () => readdirSync(directory).filter((name) => name.endsWith(".cpuprofile"));
for (let waited = 0; profiles().length === 0 && waited < 15_000; waited += 250) await setTimeout(250);
const files = profiles();
if (files.length === 0) throw new Error("The server wrote no profile.");
const selfTime = new Map<string, number>();
for (const file of files) {
  const profile = JSON.parse(readFileSync(path.join(directory, file), "utf8")) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
  };
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  profile.samples.forEach((id, index) => {
    const { functionName, url, lineNumber } = byNode.get(id)!.callFrame;
    const where = url.replace(/^.*node_modules\//, "").replace(`file://${root}/`, "");
    const key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    selfTime.set(key, (selfTime.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
}
console.log(`${files.length} process profile(s) summed`);
// Per request, so two servers' profiles compare line by line (startup and idle time are in both).
const busy = [...selfTime.entries()].filter(([key]) => !key.startsWith("(idle)"));
const total = busy.reduce((sum, [, micros]) => sum + micros, 0);
console.log(`CPU per request: ${(total / requests).toFixed(1)} µs (busy samples over ${requests} requests)`);
for (const [key, micros] of busy.sort((a, b) => b[1] - a[1]).slice(0, 45))
  console.log(`${(micros / requests).toFixed(2).padStart(7)} µs  ${key}`);
