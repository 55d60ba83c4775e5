// Settling on the ledger (DESIGN.md, "Balances, fees and payouts"): does one merchant's stream of settles queue
// on its own balance? BENCH_SETTLES pending payments are settled by BENCH_CONCURRENCY clients at once, each
// settle posting its amount, fee and net in the transition's transaction, first all of one merchant, then the
// same number spread over eight. If every settle of a merchant locked one balance row, the one merchant's run
// would be the slower and its backends would be seen waiting on locks. Then: the balance read's latency, the
// slots it sums, and ledger:verify over everything. BENCH_LEDGER_DATABASE_URL is dropped and recreated.
//
// Against the settles without a ledger: BENCH_WITHOUT_LEDGER=1 in a checkout of the commit before it
// (`git worktree add ../before-ledger 458d9b8`, this file and harness.ts copied there, node_modules linked):
// the same settles, and nothing of the ledger read afterwards.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { freshDatabase, markdownTable, percentile } from "./harness";

const databaseUrl =
  process.env.BENCH_LEDGER_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_ledger";
const settles = Number(process.env.BENCH_SETTLES ?? 4000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
process.env.DATABASE_URL = databaseUrl;
process.env.DATABASE_POOL_MAX = String(concurrency);
process.env.ENCRYPTION_KEYS ??= randomBytes(32).toString("base64");
process.env.AUTH_SECRET ??= randomBytes(33).toString("base64");
await freshDatabase(databaseUrl);
const { getDb, migrateDatabase, closeDatabase } = await import("@/db/client");
const { createMerchantWithOwner } = await import("@/lib/accounts/accounts");
const { createPayment } = await import("@/lib/payments/create-payment");
const { settleDuePayments, settlePayment } = await import("@/lib/payments/settlement");
await migrateDatabase();
const db = getDb();
const watcher = postgres(databaseUrl, { max: 1, onnotice: () => {} });

/** Runs `work` over `items`, `width` at a time; the latency of each call in ms. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const started = performance.now();
        await work(item);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function merchants(count: number): Promise<number[]> {
  const made = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      createMerchantWithOwner(db, {
        name: `Ledger bench ${index}`,
        email: `ledger-bench-${randomBytes(4).toString("hex")}@example.test`,
        password: "bench passphrase",
      }),
    ),
  );
  return made.map((account) => account.merchantId);
}

/**
 * `one by one`: each settle its own transaction (a checkout's payer, the test helper), BENCH_CONCURRENCY at
 * once. `settler`: the processor's settler (settleDuePayments), batches of 100 from four loops at once.
 */
async function run(label: string, merchantCount: number, path: "one by one" | "settler") {
  const owners = await merchants(merchantCount);
  const pending = Array.from({ length: settles }, (_, index) => owners[index % owners.length]!);
  const payments: Array<{ merchantId: number; paymentId: number }> = [];
  await inParallel(pending, 16, async (merchantId) => {
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount: "10.00", currency: "EUR" },
      // Due at once for the settler; never for the one-by-one runs.
      { source: "api", autoSettleMs: path === "settler" ? 1 : 0 },
    );
    payments.push({ merchantId, paymentId });
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  // Every 20 ms: how many backends of this database wait on a lock, and on what (a table's rows, another
  // transaction: a row it holds).
  let samples = 0;
  let waiting = 0;
  const byTable = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const [row] = await watcher<{ count: number }[]>`
        select count(*)::int as count from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`;
      const tables = await watcher<{ name: string; count: number }[]>`
        select coalesce(l.relation::regclass::text, l.locktype) || ' (' || l.locktype || ')' as name,
               count(*)::int as count
        from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.datname = current_database()
        group by 1`;
      for (const table of tables) byTable.set(table.name, (byTable.get(table.name) ?? 0) + table.count);
      samples++;
      waiting += row!.count;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const clientCpu = process.cpuUsage();
  const latencies =
    path === "settler"
      ? await inParallel([0, 1, 2, 3], 4, async () => {
          while ((await settleDuePayments(db, 100)) > 0);
        })
      : await inParallel(payments, concurrency, ({ merchantId, paymentId }) =>
          settlePayment(db, paymentId, { outcome: "completed" }, merchantId),
        );
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(clientCpu);
  sampling = false;
  await sampler;
  return {
    owners,
    row: {
      run: label,
      path,
      merchants: merchantCount,
      settles: payments.length,
      "settles/s": Math.round(payments.length / seconds),
      // This process's CPU (the app's code and the driver), per settle: the rest of two cores is PostgreSQL's.
      "client CPU µs/settle": Math.round((user + system) / payments.length),
      "p50 ms": path === "settler" ? "–" : percentile(latencies, 50).toFixed(1),
      "p99 ms": path === "settler" ? "–" : percentile(latencies, 99).toFixed(1),
      "backends waiting on a lock (mean)": (waiting / samples).toFixed(2),
      "waiting on (mean)": [...byTable]
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) => `${name} ${(count / samples).toFixed(1)}`)
        .join(", "),
    },
  };
}

// BENCH_MERCHANTS: the merchant counts to spread the settles over (the first is also the balance read's);
// BENCH_PATHS: which of the two paths.
const merchantCounts = (process.env.BENCH_MERCHANTS ?? "1,8").split(",").map(Number);
const paths = (process.env.BENCH_PATHS ?? "one by one,settler").split(",") as Array<"one by one" | "settler">;
const runs = [];
for (const path of paths)
  for (const count of merchantCounts)
    runs.push(await run(count === 1 ? "one merchant" : `${count} merchants`, count, path));
console.log(markdownTable(runs.map((each) => each.row)));
const [one] = runs;

if (process.env.BENCH_WITHOUT_LEDGER !== "1") {
  const { getBalance } = await import("@/lib/ledger/balance");
  const { verifyLedger } = await import("@/lib/ledger/verify");
  const [merchantId] = one!.owners;
  const reads = await inParallel(Array.from({ length: 500 }), 1, () => getBalance(db, merchantId!));
  const [slots] = await watcher<{ count: number }[]>`
    select count(*)::int as count from ledger_balances where merchant_id = ${merchantId!}`;
  const [transactions] = await watcher<{ count: number }[]>`
    select count(*)::int as count from balance_transactions where merchant_id = ${merchantId!}`;
  console.log(
    `\nbalance read (one merchant, ${transactions!.count} balance transactions, ${slots!.count} slot rows): ` +
      `p50 ${percentile(reads, 50).toFixed(2)} ms, p99 ${percentile(reads, 99).toFixed(2)} ms`,
  );
  const verifyStarted = performance.now();
  const report = await verifyLedger(db);
  console.log(
    `ledger:verify: ${JSON.stringify(report)} (${((performance.now() - verifyStarted) / 1000).toFixed(1)} s)`,
  );
}
await watcher.end();
await closeDatabase();
