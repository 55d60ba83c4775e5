// `npm run bench:cli`: how long a `payments` command takes from a shell, process start included, against a
// local server: the median of 20 runs of `payments balance` (and of a few other commands), beside curl of the
// same route (the floor of any HTTP client) and `node -e 0` (the floor of any node process). Needs a
// production build (`npm run build`). The operators' `admin` is timed beside them. BENCH_DATABASE_URL is recreated; BENCH_CLI_BIN times another build of
// the CLI (a copy of an older one, say); BENCH_RUNS changes the 20.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { appServerEnv, freshDatabase, root, SERVER_NODE_FLAGS, startScript } from "./harness";
import { seedBenchmark } from "./seed";

const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_cli";
const bin = path.resolve(process.env.BENCH_CLI_BIN ?? path.join(root, "packages/cli/bin/payments.js"));
const runs = Number(process.env.BENCH_RUNS ?? 20);
const port = 4700 + Math.floor(Math.random() * 200);
const ADMIN = ["--conditions=react-server", path.join(root, "scripts/run-admin.mjs")];

process.env.DATABASE_URL = databaseUrl;
await freshDatabase(databaseUrl);
const seed = await seedBenchmark(databaseUrl, 1000, 1);
const token = seed.tokens[0]!;
const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);

/** A POST as the bench's own client; a refusal fails the bench. Resolves to the id of what it made or moved. */
async function post(pathname: string, body: unknown): Promise<number> {
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      prefer: "return=representation",
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** The median: of an even count, the mean of the middle two. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

/** Wall time of one process, spawn to exit; it must exit 0. */
function time(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  const result = spawnSync(command, args, { env, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

try {
  // Something to show: a settled payment in each of two currencies, and a dispute on one of them.
  for (const currency of ["EUR", "JPY"]) {
    const payment = await post("/api/payments", { amount: "100", currency });
    await post(`/api/test-helpers/payments/${payment}/settle`, { outcome: "completed" });
    if (currency === "EUR") await post(`/api/test-helpers/payments/${payment}/dispute`, {});
  }
  const cliEnv = {
    ...process.env,
    PAYMENTS_API_URL: server.baseUrl,
    PAYMENTS_API_KEY: token,
    NO_COLOR: "1",
    // Nothing stored: the run reads no one's login.
    XDG_CONFIG_HOME: path.join(root, "bench/results/cli-config"),
  };
  const rows: Array<[string, () => number]> = [
    ["node -e 0", () => time(process.execPath, ["-e", "0"])],
    [
      "curl GET /api/balance",
      () =>
        time("curl", [
          "-sf",
          "-o",
          "/dev/null",
          "-H",
          `Authorization: Bearer ${token}`,
          `${server.baseUrl}/api/balance`,
        ]),
    ],
    ["payments --version", () => time(process.execPath, [bin, "--version"], cliEnv)],
    ["payments balance", () => time(process.execPath, [bin, "balance"], cliEnv)],
    ["payments balance --json", () => time(process.execPath, [bin, "balance", "--json"], cliEnv)],
    ["payments payments list", () => time(process.execPath, [bin, "payments", "list"], cliEnv)],
    ["payments disputes list", () => time(process.execPath, [bin, "disputes", "list"], cliEnv)],
    ["payments events list", () => time(process.execPath, [bin, "events", "list"], cliEnv)],
    ["payments get balance", () => time(process.execPath, [bin, "get", "balance"], cliEnv)],
    // The operators' CLI, as `npm run admin` starts it (compiled; npm's own start left out): its usage, and a
    // command that reads the database.
    ["admin --help", () => time(process.execPath, [...ADMIN, "--help"])],
    ["admin token:list", () => time(process.execPath, [...ADMIN, "token:list", "--email", seed.email])],
  ];
  // Warm-up: the server's routes and the file system cache, not measured.
  for (const [, run] of rows) for (let i = 0; i < 3; i++) run();
  // Interleaved, so a slow moment of the machine falls on every row alike.
  const timings = new Map<string, number[]>(rows.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) for (const [name, run] of rows) timings.get(name)!.push(run());
  console.log(`${path.relative(root, bin)}, ${runs} runs each, ms:`);
  console.log("| Command | median | min | max |\n| --- | --- | --- | --- |");
  for (const [name, values] of timings)
    console.log(
      `| ${name} | ${median(values).toFixed(1)} | ${Math.min(...values).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`,
    );
} finally {
  await server.stop();
}
