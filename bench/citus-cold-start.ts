// `npm run bench:citus-cold-start`: the first seconds of a cold cluster under load (issue 70, "Refusals"). The
// cluster is made durable (CITUS_FSYNC=on) and seeded once; then, each round, every node is restarted (no
// connection, cache or plan left) and a fresh app server (one API process, pool 16, the default 2 s deadline)
// takes 16 writers, then 64, then 64 readers, 8 s each, from its first request, with no warm-up. Prints each
// load's figures: a refusal (non-2xx) or an error is what this is here to catch.
import { spawnSync } from "node:child_process";
import { coordinatorPort, restartCitusNodes, seedAt, startApp } from "./citus-setup";
import { runLoad } from "./harness";

const name = "payments_bench_cold";
const url = `postgres://postgres@127.0.0.1:${coordinatorPort}/${name}`;
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const cluster = (...args: string[]) =>
  spawnSync("bash", ["scripts/citus-cluster.sh", ...args], {
    encoding: "utf8",
    env: { ...process.env, CITUS_FSYNC: "on" },
  });
cluster("down");
const up = cluster("up", name);
if (up.status !== 0) throw new Error(`scripts/citus-cluster.sh up failed:\n${up.stderr}`);
process.env.BENCH_CITUS = "1";
const seed = await seedAt(url, 2000);

const loads = [
  { method: "POST", connections: 16 },
  { method: "POST", connections: 64 },
  { method: "GET", connections: 64 },
] as const;
let created = 0;
for (let round = 1; round <= rounds; round++) {
  restartCitusNodes();
  const server = await startApp(url, 4700);
  try {
    for (const { method, connections } of loads) {
      const result = await runLoad({
        name: `${method} /api/payments, ${connections} connections`,
        url: `${server.baseUrl}/api/payments`,
        tokens: seed.tokens,
        connections,
        durationSeconds: 8,
        server,
        method,
        ...(method === "POST"
          ? { body: () => JSON.stringify({ amount: 1.5, external_id: `cold_${round}_${created++}` }) }
          : {}),
      });
      console.log(`round ${round}: ${JSON.stringify(result)}`);
    }
  } finally {
    await server.stop();
  }
}
