// What the Citus benchmarks share (bench:any-node, bench:per-node): the same seed on the local PostgreSQL and on
// the local cluster of scripts/citus-cluster.sh (a coordinator on CITUS_PORT, 6100, and workers on the next two
// ports), each node's CPU read from /proc, and the app started on any of them.
import { spawnSync } from "node:child_process";
import postgres from "postgres";
import { clusterCpuMicros, postmasterCpuMicros } from "./cpu";
import { appServerEnv, freshDatabase, root, SERVER_NODE_FLAGS, startScript } from "./harness";
import type { BenchSeed } from "./seed";

const citusDir = process.env.CITUS_DIR ?? "/var/lib/postgresql/citus-cluster";
export const coordinatorPort = Number(process.env.CITUS_PORT ?? 6100);
export const workerPorts = [coordinatorPort + 1, coordinatorPort + 2];

export type CitusBench = {
  postgresUrl: string;
  nodeUrl: (port: number) => string;
  postgresSeed: BenchSeed;
  citusSeed: BenchSeed;
};

/** The benchmark's seed (bench/seed.ts) in the database at `url`, through the app's own client. */
export async function seedAt(url: string, paymentCount: number): Promise<BenchSeed> {
  const { seedBenchmark } = await import("./seed");
  const { closeDatabase } = await import("@/db/client");
  // The module's connection follows DATABASE_URL, read again after each close.
  process.env.DATABASE_URL = url;
  const seed = await seedBenchmark(url, paymentCount);
  await closeDatabase();
  return seed;
}

/**
 * A fresh database `name` on the local PostgreSQL (BENCH_DATABASE_URL, if set) and on every node of the cluster,
 * each seeded alike: `paymentCount` payments of one merchant and tokens over BENCH_TOKEN_MERCHANTS merchants.
 */
export async function seedPostgresAndCitus(name: string, paymentCount: number): Promise<CitusBench> {
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/${name}`;
  const nodeUrl = (port: number) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  await freshDatabase(postgresUrl);
  const postgresSeed = await seedAt(postgresUrl, paymentCount);
  for (const port of [coordinatorPort, ...workerPorts])
    spawnSync("psql", [
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-U",
      "postgres",
      "-qc",
      `drop database if exists ${name} with (force)`,
    ]);
  const up = spawnSync("bash", ["scripts/citus-cluster.sh", "up", name], { cwd: root, encoding: "utf8" });
  if (up.status !== 0) throw new Error(`scripts/citus-cluster.sh up failed:\n${up.stderr}`);
  process.env.BENCH_CITUS = "1";
  const citusSeed = await seedAt(nodeUrl(coordinatorPort), paymentCount);
  return { postgresUrl, nodeUrl, postgresSeed, citusSeed };
}

/** A setting of the server at `url`, as `show` prints it. */
export function shownSetting(url: string, setting: string): string {
  return spawnSync("psql", [url, "-qAtc", `show ${setting}`], { encoding: "utf8" }).stdout.trim();
}

/** CPU so far, in µs, of the plain PostgreSQL and of each Citus node (keyed by port). */
export function nodesCpuMicros(): { postgres: number; nodes: Record<number, number> } {
  const nodes: Record<number, number> = {};
  for (const port of [coordinatorPort, ...workerPorts])
    nodes[port] = postmasterCpuMicros(`${citusDir}/${port}`);
  return { postgres: clusterCpuMicros("main"), nodes };
}

/**
 * Every node of the cluster stopped and started again, its data kept (`scripts/citus-cluster.sh restart`): no
 * connection, no cache, no plan, as after a machine's reboot.
 */
export function restartCitusNodes(): void {
  const restart = spawnSync("bash", ["scripts/citus-cluster.sh", "restart"], { cwd: root, encoding: "utf8" });
  if (restart.status !== 0) throw new Error(`scripts/citus-cluster.sh restart failed:\n${restart.stderr}`);
}

/** The app's server, one process with a pool of 16, on the database at `url`. */
export function startApp(url: string, port: number) {
  return startScript(
    "scripts/server.ts",
    appServerEnv(url, port, { DATABASE_POOL_MAX: "16" }),
    port,
    "/api/openapi.json",
    SERVER_NODE_FLAGS,
  );
}

/** The port of the worker that holds the merchant's shards, asked of the coordinator at `coordinatorUrl`. */
export async function merchantWorkerPort(coordinatorUrl: string, merchantId: number): Promise<number> {
  const sql = postgres(coordinatorUrl, { max: 1, onnotice: () => {} });
  const [placed] = await sql<[{ nodeport: number }]>`select nodeport from citus_shards
    where shardid = get_shard_id_for_distribution_column('payments', ${merchantId}::bigint)`;
  await sql.end();
  return Number(placed.nodeport);
}
