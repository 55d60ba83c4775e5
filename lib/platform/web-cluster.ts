import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { getEnv } from "./env";

/**
 * How many web server processes `npm start` runs: WEB_CONCURRENCY, else one per CPU in production on
 * PostgreSQL. Always one on the embedded database (PGlite admits a single process) and in development.
 */
export function webConcurrency(dev: boolean): number {
  const env = getEnv();
  if (dev || !env.DATABASE_URL) return 1;
  return env.WEB_CONCURRENCY ?? availableParallelism();
}

/** A process that died unasked is replaced, but not faster than this. */
const RESTART_DELAY_MS = 1000;

/**
 * The primary of a multi-process server: forks `count` server processes that share the port (node:cluster
 * hands each accepted connection to one of them, each with its own database pool), replaces one that dies,
 * and on SIGTERM/SIGINT passes the signal on and exits once every process has drained.
 */
export function runWebCluster(count: number): void {
  let stopping = false;
  for (let index = 0; index < count; index++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`Server process ${worker.process.pid} exited (${signal ?? code}); starting another.`);
    setTimeout(() => cluster.fork(), RESTART_DELAY_MS);
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) process.exit(0);
      for (const worker of workers) worker?.process.kill(signal);
    });
  }
}
