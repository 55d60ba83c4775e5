// Shared by the benchmarks: starting servers, sampling their memory, and running autocannon.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { childPids, databaseCpuMicros, serverCpuMicros } from "./cpu";

export const root = path.resolve(import.meta.dirname, "..");

/** Recreates the benchmark database, so every run starts from the same seed. */
export async function freshDatabase(databaseUrl: string): Promise<void> {
  // On Citus the database lives on every node: `scripts/citus-cluster.sh up <name>` makes it fresh instead.
  if (process.env.BENCH_CITUS === "1") return;
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
}

export type RunningServer = {
  process: ChildProcess;
  baseUrl: string;
  /** The largest resident set any one of the server's processes has had (MB). */
  peakRssMb: () => number;
  /** The largest its processes have had together (MB). */
  peakTotalRssMb: () => number;
  stop: () => Promise<void>;
};

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * The V8 flags `npm start` gives the server (package.json's `start`), so a benchmark measures the memory and
 * speed production gets.
 */
export const SERVER_NODE_FLAGS = (
  JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
).scripts.start
  .split(" ")
  .filter((arg) => arg.startsWith("--max-"));

/**
 * The environment of the platform's server in a benchmark: production, one process, fresh secrets, no
 * worker and no automatic settlement (nothing but the measured requests), on `port`.
 */
export function appServerEnv(
  databaseUrl: string,
  port: number,
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    WEB_CONCURRENCY: "1",
    AUTH_SECRET: randomBytes(33).toString("base64"),
    ENCRYPTION_KEYS: randomBytes(32).toString("base64"),
    WORKER_MODE: "off",
    PAYMENTS_AUTO_SETTLE_MS: "0",
    ...overrides,
  };
}

/** Starts a TypeScript script as the project runs them and waits until `ready` answers: a path on `port`, or a line it prints. */
export async function startScript(
  script: string,
  env: NodeJS.ProcessEnv,
  port: number,
  ready: string | { line: string },
  nodeFlags: string[] = [],
): Promise<RunningServer> {
  // A server left over from an interrupted run would answer the readiness check, and take the load, for this one.
  if (typeof ready === "string" && (await fetch(`http://127.0.0.1:${port}${ready}`).catch(() => null)))
    throw new Error(`Port ${port} is already served (a server left from an earlier run?): stop it first.`);
  // The platform's server runs as `npm start` runs it, compiled by `npm run build`; other scripts under tsx.
  const entry = script === "scripts/server.ts" ? ["dist/server/server.js"] : ["--import", "tsx", script];
  const child = spawn(process.execPath, [...nodeFlags, "--conditions=react-server", ...entry], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // Kept for reading after the run: bench/results/<script>-<port>.log.
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  const log = createWriteStream(
    path.join(root, "bench/results", `${path.basename(script, ".ts")}-${port}.log`),
  );
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  const isReady = () =>
    typeof ready === "string"
      ? fetch(`${baseUrl}${ready}`).then(
          () => true,
          () => false,
        )
      : Promise.resolve(output.includes(ready.line));
  while (!(await isReady())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // A `npm start` on PostgreSQL is a primary and the server processes it forks: each is sampled.
  let peak = 0;
  let peakTotal = 0;
  const sample = () => {
    const each = [child.pid!, ...childPids(child.pid!)].map(rssMb);
    peak = Math.max(peak, ...each);
    peakTotal = Math.max(
      peakTotal,
      each.reduce((sum, mb) => sum + mb, 0),
    );
  };
  const sampler = setInterval(sample, 200);
  return {
    process: child,
    baseUrl,
    peakRssMb() {
      sample();
      return Math.round(peak);
    },
    peakTotalRssMb() {
      sample();
      return Math.round(peakTotal);
    },
    async stop() {
      clearInterval(sampler);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

export type LoadResult = {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  memoryMb: number;
  /** CPU per request, in microseconds: the server's processes, and PostgreSQL's (and PgBouncer's). */
  serverCpuUs: number;
  databaseCpuUs: number;
};

/** Runs one scenario with autocannon: `connections` keep-alive connections, tokens spread round robin. */
export async function runLoad(options: {
  name: string;
  url: string;
  tokens: string[];
  connections: number;
  durationSeconds: number;
  method?: "GET" | "POST";
  body?: () => string;
  /** A path per request (the url's own path otherwise), e.g. a different payment's refunds each time. */
  path?: () => string;
  server: RunningServer;
}): Promise<LoadResult> {
  let next = 0;
  const pid = options.server.process.pid!;
  const serverCpuBefore = serverCpuMicros(pid);
  const databaseCpuBefore = databaseCpuMicros();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? "GET",
    headers: { accept: "application/json", "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: {
            ...request.headers,
            authorization: `Bearer ${options.tokens[next++ % options.tokens.length]}`,
          },
          ...(options.body ? { body: options.body() } : {}),
          ...(options.path ? { path: options.path() } : {}),
        }),
      },
    ],
  });
  const requests = Math.max(1, result.requests.total);
  return {
    name: options.name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    memoryMb: options.server.peakRssMb(),
    serverCpuUs: Math.round((serverCpuMicros(pid) - serverCpuBefore) / requests),
    databaseCpuUs: Math.round((databaseCpuMicros() - databaseCpuBefore) / requests),
  };
}

export function markdownTable(rows: Array<Record<string, string | number>>): string {
  const headers = Object.keys(rows[0] ?? {});
  return [
    `| ${headers.join(" | ")} |`,
    `|${headers.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${headers.map((header) => String(row[header])).join(" | ")} |`),
  ].join("\n");
}

/** The p-th percentile of timings (sorted here, the input left as it is). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
