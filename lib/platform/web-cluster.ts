import cluster, { type Worker } from "node:cluster";
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { answerScrapes } from "./cluster-metrics";
import { ConnectionDispatcher } from "./connection-dispatcher";
import { checkWebServerEnv, getEnv } from "./env";

/**
 * What one process of `npm start` serves. `whole`: everything, Next.js included (development, and the
 * embedded database, which admits a single process). In production on PostgreSQL the work is split: `api`
 * processes (WEB_CONCURRENCY of them, sharing the port) answer the merchant API and the operator routes
 * and hand everything else to one `dashboard` process running Next.js. Next.js enters AsyncLocalStorage
 * stores, which on Node 20 turn on promise hooks for the whole process and for good (BENCHMARKS.md): kept
 * out of the API processes, they never cost the API anything.
 */
export type ServerRole = "whole" | "api" | "dashboard";

export function serverRole(): ServerRole {
  if (cluster.isPrimary) return "whole";
  return process.env.SERVER_ROLE === "dashboard" ? "dashboard" : "api";
}

/**
 * An API process's young generation (V8's semi-space, in MB), in place of the 16 MB `npm start` gives every
 * process. Its garbage is almost all per request: with 16 MB the scavenger ran several times a second under
 * load and copied the objects of every request under way each time, the largest item of a list request's cost
 * after the socket writes (docs/benchmarks-log.md, "The API processes' young generation"). The dashboard
 * process keeps 16 MB: Next.js's pages and exports are where memory grows.
 */
const API_SEMI_SPACE_MB = 64;

function execArgvOf(role: "api" | "dashboard"): string[] {
  if (role === "dashboard") return process.execArgv;
  const others = process.execArgv.filter((flag) => !flag.startsWith("--max-semi-space-size"));
  return [...others, `--max-semi-space-size=${API_SEMI_SPACE_MB}`];
}

/** The unix socket the dashboard process listens on, from the primary. */
export function dashboardSocket(): string {
  const socket = process.env.DASHBOARD_SOCKET;
  if (!socket) throw new Error("DASHBOARD_SOCKET is not set: the dashboard process is started by npm start");
  return socket;
}

/** The message the dashboard process sends its primary once it accepts requests. */
export const DASHBOARD_LISTENING = "dashboard listening";

/**
 * How many API processes `npm start` runs, or undefined when this one process serves everything: in
 * development, on the embedded database, and with a bad environment (which the process then reports).
 */
export function apiProcessCount(dev: boolean): number | undefined {
  try {
    const env = getEnv();
    checkWebServerEnv();
    if (dev || !env.DATABASE_URL) return undefined;
    return env.WEB_CONCURRENCY ?? availableParallelism();
  } catch {
    return undefined;
  }
}

/** The dashboard's socket is named for the primary's pid, so a leftover says which server left it. */
const DASHBOARD_SOCKET_NAME = /^payments-dashboard-(\d+)\.sock$/;

/** Whether a pid is a live process: only ESRCH says it is gone (EPERM is another user's live process). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Removes the dashboard sockets of servers that are gone: a primary killed with SIGKILL (or stopped while
 * its dashboard process was dead) leaves `payments-dashboard-<pid>.sock` behind, one per start otherwise.
 * A socket whose pid is alive belongs to another running server (or to whatever reused the pid) and is
 * kept, as is anything that is not a socket. Returns what it removed.
 */
export function removeStaleDashboardSockets(directory = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = DASHBOARD_SOCKET_NAME.exec(name)?.[1];
    if (pid === undefined || processExists(Number(pid))) continue;
    const file = path.join(directory, name);
    try {
      if (!lstatSync(file).isSocket()) continue;
      rmSync(file);
      removed.push(file);
    } catch {
      // Gone meanwhile, or another user's (the sticky /tmp refuses): not this server's to clean.
    }
  }
  return removed;
}

/**
 * A process that died unasked is replaced at once: requests wait on its connections meanwhile. One that died
 * within YOUNG_PROCESS_MS of its start is replaced after RESTART_DELAY_MS, so a crash at boot cannot spin.
 */
const RESTART_DELAY_MS = 1000;
const YOUNG_PROCESS_MS = 10_000;

/**
 * The primary of `npm start` on PostgreSQL: listens on the port (lib/platform/connection-dispatcher.ts),
 * forks the dashboard process, then, once it listens, `apiCount` API processes, and hands each accepted
 * connection to one of them in turn (each has its own database pool). It replaces a process that dies once
 * the platform has been up; a process that dies before that failed to boot (a bad configuration), which
 * another try would repeat, so the primary stops the rest and exits with its code. On SIGTERM/SIGINT it
 * stops accepting, stops the API processes, then the dashboard, which they hand requests to while they
 * drain, and exits once all are gone.
 */
export function runWebCluster(apiCount: number): void {
  for (const file of removeStaleDashboardSockets())
    console.log(`Removed ${file}, left by a server that is gone`);
  const socket = path.join(tmpdir(), `payments-dashboard-${process.pid}.sock`);
  const exit = () => {
    // A dashboard process that closed its server removed the socket; one killed with SIGKILL did not.
    rmSync(socket, { force: true });
    process.exit();
  };
  const roles = new Map<Worker, "api" | "dashboard">();
  const startedAt = new Map<Worker, number>();
  let stopping: NodeJS.Signals | undefined;
  let apiStarted = false;
  /** Set once the first API process takes connections: from then on a process that dies is replaced. */
  let up = false;
  const port = getEnv().PORT;
  const dispatcher = new ConnectionDispatcher(() => {
    if (!up) console.log(`Ready on http://localhost:${port}`);
    up = true;
  });
  dispatcher.listen(port).catch((error: NodeJS.ErrnoException) => {
    console.error(
      error.code === "EADDRINUSE"
        ? `\nPort ${port} is in use by another process; set PORT to use another.\n`
        : error,
    );
    process.exitCode = 1;
    stopAll("SIGTERM");
  });
  const fork = (role: "api" | "dashboard") => {
    cluster.setupPrimary({ execArgv: execArgvOf(role) });
    const worker = cluster.fork({ SERVER_ROLE: role, DASHBOARD_SOCKET: socket });
    roles.set(worker, role);
    startedAt.set(worker, Date.now());
    answerScrapes(worker);
    if (role === "api") dispatcher.add(worker);
    if (role === "dashboard")
      worker.on("message", (message: unknown) => {
        if (message !== DASHBOARD_LISTENING) return;
        console.log(`Dashboard process ${worker.process.pid} listening on ${socket}`);
        if (apiStarted || stopping) return;
        apiStarted = true;
        for (let index = 0; index < apiCount; index++) fork("api");
      });
  };
  const workersOf = (role: "api" | "dashboard") =>
    [...roles].filter(([, each]) => each === role).map(([worker]) => worker);

  /** Stops accepting, then the API processes; the dashboard once they are gone (the exit handler). */
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = signal;
    dispatcher.close();
    if (roles.size === 0) exit();
    const first = workersOf("api").length > 0 ? workersOf("api") : workersOf("dashboard");
    for (const worker of first) worker.process.kill(signal);
  };

  fork("dashboard");
  cluster.on("exit", (worker, code, signal) => {
    const role = roles.get(worker)!;
    const age = Date.now() - startedAt.get(worker)!;
    roles.delete(worker);
    startedAt.delete(worker);
    if (!up && !stopping) {
      console.error(`The ${role} process failed to start (${signal ?? code}); npm start gives up.`);
      process.exitCode = typeof code === "number" && code !== 0 ? code : 1;
      stopAll("SIGTERM");
    }
    if (stopping) {
      if (workersOf("api").length === 0)
        for (const each of workersOf("dashboard")) each.process.kill(stopping);
      if (roles.size === 0) exit();
      return;
    }
    console.error(
      `Server process ${worker.process.pid} (${role}) exited (${signal ?? code}); starting another.`,
    );
    setTimeout(
      () => {
        if (!stopping) fork(role);
      },
      age < YOUNG_PROCESS_MS ? RESTART_DELAY_MS : 0,
    );
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => stopAll(signal));
}
