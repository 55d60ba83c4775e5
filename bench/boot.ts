// Boot to ready of an API process: `npm start` on PostgreSQL with one API process, which is killed (SIGKILL)
// again and again; each time, one request sent right after the kill waits on the primary until the replacement
// takes connections. BENCH_SERVER_TSX=1 runs the server from its TypeScript under tsx, as before it was compiled.
//   npm run build && npm run bench:boot
import { readFileSync } from "node:fs";
import http from "node:http";
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

/**
 * A request on a connection of its own, as a client arriving after the kill sends it (a kept-alive one would
 * have been served by the killed process, and reset with it).
 */
function statusOnNewConnection(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: 60_000 }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on("error", reject);
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
    const status = await statusOnNewConnection(`${server.baseUrl}/api/payments`);
    waits.push(performance.now() - started);
    if (status !== 401) throw new Error(`expected 401, got ${status}`);
  }
} finally {
  await server.stop();
}
const seconds = (ms: number) => (ms / 1000).toFixed(2);
console.log(
  `${process.env.BENCH_SERVER_TSX === "1" ? "tsx" : "compiled"}: ${rounds} kills, a request waited ` +
    `min ${seconds(Math.min(...waits))} s, p50 ${seconds(percentile(waits, 50))} s, max ${seconds(Math.max(...waits))} s`,
);
