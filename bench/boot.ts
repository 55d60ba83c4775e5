// Boot to ready of an API process: `npm start` on PostgreSQL with one API process, which is killed (SIGKILL)
// again and again; each time, one request sent right after the kill waits on the primary until the replacement
// takes connections. BENCH_SERVER_TSX=1 runs the server from its TypeScript under tsx, as before it was compiled.
//   npm run build && npm run bench:boot
import { readFileSync } from "node:fs";
import { childPids } from "./cpu";
import { appServerEnv, freshDatabase, percentile, SERVER_NODE_FLAGS, startScript } from "./harness";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_boot";
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const port = 3600 + Math.floor(Math.random() * 300);

/** The server's API processes: the primary's children whose role is `api`. */
function apiPids(primary: number): number[] {
  return childPids(primary).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes("SERVER_ROLE=api");
    } catch {
      return false;
    }
  });
}

await freshDatabase(databaseUrl);
const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);
const waits: number[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    // Past the cluster's young-process window, so the kill is answered by an immediate replacement.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const [pid] = apiPids(server.process.pid!);
    if (pid === undefined) throw new Error("no API process found");
    const started = performance.now();
    process.kill(pid, "SIGKILL");
    const response = await fetch(`${server.baseUrl}/api/payments`, { signal: AbortSignal.timeout(60_000) });
    waits.push(performance.now() - started);
    if (response.status !== 401) throw new Error(`expected 401, got ${response.status}`);
  }
} finally {
  await server.stop();
}
const seconds = (ms: number) => (ms / 1000).toFixed(2);
console.log(
  `${process.env.BENCH_SERVER_TSX === "1" ? "tsx" : "compiled"}: ${rounds} kills, a request waited ` +
    `min ${seconds(Math.min(...waits))} s, p50 ${seconds(percentile(waits, 50))} s, max ${seconds(Math.max(...waits))} s`,
);
