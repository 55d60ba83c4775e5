// `npm run bench:sandboxes` (issue 67, DESIGN.md "Live and sandboxes"): over real HTTP on PostgreSQL (or Citus:
// BENCH_DATABASE_URL names any database, recreated first),
// 1. a sandbox made and deleted with BENCH_SANDBOXES (1,000) sandboxes in the account: POST and DELETE
//    /api/sandboxes in turn, BENCH_RUNS (100) of each, their p50 and p95 (DESIGN: a create within 100 ms p50);
// 2. a test clock advanced across 60 days with BENCH_PAYMENTS (1,000) payments in its sandbox, made at its start
//    with a payout account: every settle, the balances becoming available, 60 days of the daily schedule and each
//    payout's moves, in one `POST /api/test-helpers/clock/advance`, BENCH_CLOCK_RUNS (3) times, a fresh sandbox
//    each.
// Needs a production build (`npm run build`).
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  appServerEnv,
  freshDatabase,
  markdownTable,
  percentile,
  SERVER_NODE_FLAGS,
  startScript,
} from "./harness";
import { seedBenchmark } from "./seed";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_sandboxes";
const sandboxCount = Number(process.env.BENCH_SANDBOXES ?? 1_000);
const runs = Number(process.env.BENCH_RUNS ?? 100);
const paymentCount = Number(process.env.BENCH_PAYMENTS ?? 1_000);
const clockRuns = Number(process.env.BENCH_CLOCK_RUNS ?? 3);
const port = 4800 + Math.floor(Math.random() * 90);
const DAY_MS = 86_400_000;
// Room for the account's sandboxes and the measured ones.
// One key for the server and this process, which writes the sandboxes' payout accounts.
const encryptionKeys = randomBytes(32).toString("base64");
const limits = {
  ENCRYPTION_KEYS: encryptionKeys,
  SANDBOXES_PER_ACCOUNT: String(sandboxCount + runs + clockRuns + 10),
  PAYMENTS_AUTO_SETTLE_MS: "1500",
};

process.env.DATABASE_URL = databaseUrl;
Object.assign(process.env, limits);
await freshDatabase(databaseUrl);
const seed = await seedBenchmark(databaseUrl, 10, 1);
const { getDb, closeDatabase, selectRows } = await import("@/db/client");
const { createAccountKey, createSandbox } = await import("@/lib/environments/environments");
const db = getDb();
const [merchant] = await selectRows<{ merchant_id: string }>(
  db,
  sql`select merchant_id from users where email = ${seed.email}`,
);
const accountId = Number(merchant!.merchant_id);
const operator = { actor: "bench", ip: "127.0.0.1", userAgent: "bench" };
const accountKey = (await createAccountKey(db, accountId, "bench", operator)).token;
const filled = performance.now();
for (let index = 1; index < sandboxCount; index++)
  await createSandbox(db, accountId, { name: `existing-${index}` }, operator);
const fillSeconds = ((performance.now() - filled) / 1000).toFixed(1);
await closeDatabase();

const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port, limits),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);

async function call(path: string, token: string, method = "GET", body?: unknown) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return { ms, body: text ? (JSON.parse(text) as { data: Record<string, unknown> }) : undefined };
}

const rows: Array<Record<string, string | number>> = [];
const clockRows: Array<Record<string, string | number>> = [];
try {
  // Warmed first: a fresh server compiles and plans on its first requests.
  for (let index = 0; index < 5; index++) {
    const made = await call("/api/sandboxes", accountKey, "POST", { name: `warm-${index}` });
    await call(`/api/sandboxes/${String(made.body!.data.id)}`, accountKey, "DELETE");
  }
  const creates: number[] = [];
  const deletes: number[] = [];
  for (let index = 0; index < runs; index++) {
    const made = await call("/api/sandboxes", accountKey, "POST", { name: `measured-${index}` });
    creates.push(made.ms);
    deletes.push((await call(`/api/sandboxes/${String(made.body!.data.id)}`, accountKey, "DELETE")).ms);
  }
  for (const [what, times] of [
    ["POST /api/sandboxes", creates],
    ["DELETE /api/sandboxes/{id} (empty)", deletes],
  ] as const)
    rows.push({
      Request: what,
      "Sandboxes in the account": sandboxCount,
      Runs: runs,
      "p50 ms": percentile(times, 50).toFixed(1),
      "p95 ms": percentile(times, 95).toFixed(1),
    });

  const { setPayoutAccount } = await import("@/lib/payouts/account");
  const clockDb = getDb();
  for (let run = 0; run < clockRuns; run++) {
    const start = new Date(Math.floor((Date.now() - 70 * DAY_MS) / DAY_MS) * DAY_MS);
    const made = await call("/api/sandboxes", accountKey, "POST", {
      name: `clock-${run}`,
      clock: start.toISOString().slice(0, 10),
    });
    const sandbox = made.body!.data as { id: number; token: string };
    await setPayoutAccount(clockDb, sandbox.id, {
      account_holder: "Bench",
      iban: "DE89 3704 0044 0532 0130 00",
    });
    for (let index = 0; index < paymentCount; index++)
      await call("/api/payments", sandbox.token, "POST", { amount: "10.00", currency: "EUR" });
    const advanced = await call("/api/test-helpers/clock/advance", sandbox.token, "POST", { by: "P60D" });
    const [outcome] = await selectRows<{ completed: number; payouts: number; paid: number }>(
      clockDb,
      sql`select (select count(*)::int from payments where merchant_id = ${sandbox.id} and status = 'completed') as completed,
                 (select count(*)::int from payouts where merchant_id = ${sandbox.id}) as payouts,
                 (select count(*)::int from payouts where merchant_id = ${sandbox.id} and status = 'paid') as paid`,
    );
    clockRows.push({
      Run: run + 1,
      "Payments made at the start": paymentCount,
      'POST .../clock/advance {"by":"P60D"}, ms': advanced.ms.toFixed(0),
      Settled: outcome!.completed,
      "Payouts made (paid)": `${outcome!.payouts} (${outcome!.paid})`,
    });
  }
  await closeDatabase();
} finally {
  await server.stop();
}

console.log(`\n${sandboxCount} sandboxes made in ${fillSeconds} s beforehand.\n`);
console.log(markdownTable(rows));
console.log(`\n${markdownTable(clockRows)}`);
