// Starts the real production server (`npm start` on the production build) for a test run, on PGlite in a fresh temp directory or on
// the PostgreSQL that DATABASE_URL names, after seeding one merchant with the domain functions (tests/support/seed.ts).
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { databaseUrlParts, withDatabaseName } from "@/db/url";

export type AdminResult = { status: number | null; stdout: string; stderr: string };
export type SeedMerchant = {
  merchant_id: number;
  user_id: number;
  email: string;
  password: string;
  /** The business name (the owner gave no name of their own). */
  name: string;
};

const root = path.resolve(import.meta.dirname, "../..");
// TypeScript scripts run in one node process with tsx's loader (the tsx CLI would add a wrapper process, and
// a SIGKILL to the wrapper would leave the real one running).
const TSX = ["--import", "tsx", "--conditions=react-server"];
const SERVER_BUNDLE = "dist/server/server.js";

export function testEnvironment(
  name: string,
  port: number,
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    // One process unless a test asks for more (the cluster test does).
    WEB_CONCURRENCY: "1",
    AUTH_SECRET: randomBytes(33).toString("base64"),
    // One key per database for the whole run: the vitest and Playwright servers share a PostgreSQL database,
    // and each boots only if it can read every secret stored in it.
    ENCRYPTION_KEYS: createHash("sha256")
      .update(`payments test key:${process.env.DATABASE_URL ?? randomBytes(16).toString("hex")}`)
      .digest("base64"),
    METRICS_TOKEN: randomBytes(18).toString("base64url"),
    // As behind one load balancer: tests act as distinct clients with X-Forwarded-For (the throttling tests).
    TRUSTED_PROXIES: "1",
    // Access lines too, so the tests can find a request's log line (and check that no secret is in any).
    LOG_LEVEL: "debug",
    NEXT_TELEMETRY_DISABLED: "1",
    // Local receivers on 127.0.0.1 are the whole point of the webhook tests.
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
    // Settle quickly so lifecycle tests see payment.completed without a long wait.
    PAYMENTS_AUTO_SETTLE_MS: "1500",
    // A replaced payout account holds nothing (DESIGN.md: 0 in tests); security-history.test.ts starts its own
    // server with a hold.
    PAYOUT_ACCOUNT_CHANGE_HOLD: "0",
    // Small, so the environments suite reaches the limit in a few requests.
    SANDBOXES_PER_ACCOUNT: "4",
    // Every mail the server sends is kept here as a file, for the tests to read (lib/platform/mailer.ts).
    MAIL_OUTBOX_DIR: path.join(tmpdir(), "payments-outbox", `${name}-${port}`),
    TEST_RECEIVER_PORT: String(port + 91),
    // PGlite admits one process, so its server runs the worker inside; on PostgreSQL workers are separate
    // processes, started by the suites that need them, as in production.
    WORKER_MODE: process.env.DATABASE_URL ? "off" : "inline",
    // For tenant-scoping.test.ts: every statement the app's processes send (tests/support/global-setup.ts).
    ...(process.env.TEST_STATEMENT_CAPTURE
      ? { DATABASE_STATEMENT_CAPTURE: process.env.TEST_STATEMENT_CAPTURE }
      : {}),
    ...overrides,
  };
  // A server on a database of its own (its name plus a suffix) reads that database on the replicas too.
  if (env.DATABASE_URL && env.DATABASE_REPLICA_URLS) {
    const { database } = databaseUrlParts(env.DATABASE_URL);
    env.DATABASE_REPLICA_URLS = env.DATABASE_REPLICA_URLS.split(",")
      .map((url) => withDatabaseName(url, database))
      .join(",");
  }
  if (!env.DATABASE_URL) env.PGLITE_DATA_DIR = newPgliteDirectory(name);
  return env;
}

/**
 * A PGlite data directory of its own, in a temp directory: a copy of the run's migrated one when global setup
 * made it (TEST_PGLITE_TEMPLATE), so that a suite's database opens ready instead of running every migration
 * again (about 4 s each time, for some 40 databases a run).
 */
export function newPgliteDirectory(name: string): string {
  const directory = path.join(mkdtempSync(path.join(tmpdir(), `payments-${name}-`)), "pglite");
  const template = process.env.TEST_PGLITE_TEMPLATE;
  if (template) cpSync(template, directory, { recursive: true });
  return directory;
}

/** Global setup's migrated PGlite directory (the operator CLI migrates it, then closes it cleanly). */
export function makePgliteTemplate(): string {
  const env = testEnvironment("template", 0);
  const result = runAdmin(["ledger:verify", "--json"], env);
  if (result.status !== 0) throw new Error(`migrating the PGlite template failed: ${result.stderr}`);
  return env.PGLITE_DATA_DIR!;
}

/**
 * What the admin CLI runs with in the tests: the server's keys (on PostgreSQL the secrets the CLI writes live
 * beside the server's, and its workers read them) and production's policy for webhook URLs (https only, no
 * private networks).
 */
export function adminCliEnvironment(serverEnv: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    ...testEnvironment("cli", 0),
    AUTH_SECRET: serverEnv.AUTH_SECRET,
    ENCRYPTION_KEYS: serverEnv.ENCRYPTION_KEYS,
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "false",
  };
}

/** Runs `npm run admin -- …` the way an operator would (without npm's banner). */
export function runAdmin(args: string[], env: Record<string, string | undefined>): AdminResult {
  // The compiled operator CLI (npm run build), as the tests' server is: under tsx each run took seconds to boot.
  const result = spawnSync(process.execPath, ["--conditions=react-server", "dist/server/admin.js", ...args], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** runAdmin without blocking this process: for a command that calls a server this process runs (a stand-in). */
export function runAdminAsync(args: string[], env: Record<string, string | undefined>): Promise<AdminResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=react-server", "dist/server/admin.js", ...args],
      { cwd: root, env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ status: error ? ((error.code as number | null) ?? null) : 0, stdout, stderr }),
    );
  });
}

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
}

export type SeedData = {
  seed: SeedMerchant;
  other: SeedMerchant;
  limited: SeedMerchant;
  hooks: SeedMerchant & { secret: string; endpoint_id: number };
  flaky: SeedMerchant & { secret: string; endpoint_id: number };
  gone: SeedMerchant;
  history: SeedMerchant;
  /** Its last UTC month (`month`, the first day) holds every kind of balance transaction (seed-accountant.ts). */
  accountant: SeedMerchant & { month: string };
  /** The ledger's suite: balances no other suite moves; `priced` pays 1.4% + 0.25. */
  ledger: SeedMerchant;
  priced: SeedMerchant;
  /** The SDK's balance and payouts. */
  treasury: SeedMerchant;
  /** Its payout account was just replaced: payouts wait a day (the servers' own hold is 0 in tests). */
  held: SeedMerchant;
  /** Owners with a second factor: the code step's throttling, and replayed codes. */
  guessed: SeedMerchant & { totp_secret: string };
  replayed: SeedMerchant & { totp_secret: string };
  /** An account whose sandboxes the environments suite makes up to the servers' SANDBOXES_PER_ACCOUNT. */
  sandboxer: SeedMerchant;
  /** The seed account's live environment (its own merchant id). */
  seed_live_id: number;
  tokens: Record<SeedTokenName, string>;
};

export type SeedTokenName =
  | "api"
  | "badInput"
  | "idempotency"
  | "isolation"
  | "rateLimit"
  | "rateLimitShared"
  | "read"
  | "payoutAccount"
  | "other"
  | "expired"
  | "revoked"
  | "rolledExpired"
  | "rolledReplacement"
  | "rolledInGrace"
  | "hooks"
  | "flaky"
  | "gone"
  | "ledger"
  | "priced"
  | "treasury"
  | "disputer"
  | "accountant"
  | "live"
  | "account"
  | "sandboxer"
  | "otherAccount"
  /** The test-clock suite's account: its sandboxes are made on clocks (test-clock.test.ts). */
  | "clockAccount";

export type TestServer = {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  data: SeedData;
  /** Everything the server printed so far (its JSON log). */
  output: () => string;
  /** Stops it; its PGlite directory is removed unless `keepData` (then the caller removes it). */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
};

/** Runs tests/support/seed.ts (domain functions, before the server holds the database). */
function seedDatabase(name: string, env: NodeJS.ProcessEnv): SeedData {
  const result = spawnSync(process.execPath, [...TSX, "tests/support/seed.ts", name], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`Seeding failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as SeedData;
}

/** Starts the production server (`npm start`) on a port; resolves once it answers. */
export async function startServerProcess(
  port: number,
  env: NodeJS.ProcessEnv,
): Promise<{ baseUrl: string; pid: number; output: () => string; stop: () => Promise<void> }> {
  const baseUrl = `http://127.0.0.1:${port}`;
  // A server left over from another run would answer in this one's place.
  if (
    await fetch(baseUrl).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`Port ${port} is already in use.`);
  // What `npm start` runs: the server compiled by `npm run build` (scripts/build-server.mjs), with its source
  // maps on, so the statements it records name the app's own functions and files (tenant-scoping.test.ts).
  const server: ChildProcess = spawn(
    process.execPath,
    ["--enable-source-maps", "--conditions=react-server", SERVER_BUNDLE],
    {
      cwd: root,
      env: { ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // Kept in test-results/ for reading after a failure.
  mkdirSync(path.join(root, "test-results"), { recursive: true });
  const log = createWriteStream(path.join(root, "test-results", `server-${port}.log`));
  let output = "";
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  server.stdout?.on("data", record);
  server.stderr?.on("data", record);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    const ready = await fetch(`${baseUrl}/login`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`Server did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    baseUrl,
    pid: server.pid!,
    output: () => output,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (server.exitCode === null) server.kill("SIGKILL");
      }
    },
  };
}

export async function startTestServer(
  name: string,
  port: number,
  overrides: Record<string, string> = {},
  /** Runs after the seed, before the server holds the database (PGlite admits one process): the admin CLI. */
  beforeStart?: (env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<TestServer> {
  const env = testEnvironment(name, port, overrides);
  const data = seedDatabase(name, env);
  await beforeStart?.(env);
  const server = await startServerProcess(port, env);
  return {
    baseUrl: server.baseUrl,
    env,
    data,
    output: server.output,
    async stop({ keepData = false } = {}) {
      await server.stop();
      if (env.PGLITE_DATA_DIR && !keepData)
        rmSync(path.dirname(env.PGLITE_DATA_DIR), { recursive: true, force: true });
      assertNoSecretLogged(server.output(), data);
    },
  };
}

/**
 * After a whole run: no token, webhook secret or password the seed created appears anywhere in what a
 * process printed (its JSON log and anything else). Names the secret, never prints it.
 */
export function assertNoSecretLogged(output: string, data: SeedData): void {
  const secrets: Array<[string, string]> = [
    ...Object.entries(data.tokens).map(([name, token]): [string, string] => [`token ${name}`, token]),
    ["hooks webhook secret", data.hooks.secret],
    ["flaky webhook secret", data.flaky.secret],
    ...(["seed", "other", "limited", "hooks", "flaky", "gone"] as const).map((name): [string, string] => [
      `${name} password`,
      data[name].password,
    ]),
  ];
  const leaked = secrets.filter(([, secret]) => output.includes(secret)).map(([name]) => name);
  if (leaked.length > 0) throw new Error(`Secrets found in a process's output: ${leaked.join(", ")}`);
}

export type WorkerProcess = {
  pid: number;
  output: () => string;
  /** Resolves once the worker has printed a line matching `pattern`. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  kill: (signal: NodeJS.Signals) => Promise<void>;
  /** Its exit code once it has exited, else null. */
  exitCode: () => number | null;
};

/** Starts `npm run worker` (PostgreSQL only) and resolves once it says it is running. */
export async function startWorkerProcess(
  env: Record<string, string | undefined>,
  extra: Record<string, string> = {},
): Promise<WorkerProcess> {
  const worker = spawn(process.execPath, [...TSX, "scripts/worker.ts"], {
    cwd: root,
    env: { ...(env as NodeJS.ProcessEnv), ...extra },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  mkdirSync(path.join(root, "test-results"), { recursive: true });
  const log = createWriteStream(path.join(root, "test-results", `worker-${worker.pid}.log`));
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  worker.stdout.on("data", record);
  worker.stderr.on("data", record);
  const deadline = Date.now() + 60_000;
  while (!output.includes("Webhook worker running")) {
    if (worker.exitCode !== null || Date.now() > deadline)
      throw new Error(`Worker did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: worker.pid!,
    output: () => output,
    async waitForOutput(pattern, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (Date.now() > until) throw new Error(`Worker never printed ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    exitCode: () => worker.exitCode,
    async kill(signal) {
      if (worker.exitCode !== null) return;
      // "close", not "exit": the pipes are read to the end, so output() holds the worker's last lines.
      const closed = new Promise((resolve) => worker.once("close", resolve));
      worker.kill(signal);
      await closed;
    },
  };
}

/** What the suite's server has printed so far (its JSON log), from the file startServerProcess writes. */
export function readServerLog(baseUrl: string): string {
  return readFileSync(path.join(root, "test-results", `server-${new URL(baseUrl).port}.log`), "utf8");
}
