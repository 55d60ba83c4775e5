// Settling on the ledger (DESIGN.md, "Balances, fees and payouts"): does one merchant's stream of settles queue
// on its own balance? BENCH_SETTLES pending payments are settled by BENCH_CONCURRENCY clients at once, each
// settle posting its amount, fee and net in the transition's transaction, first all of one merchant, then the
// same number spread over eight. If every settle of a merchant locked one balance row, the one merchant's run
// would be the slower and its backends would be seen waiting on locks. Then: the balance read's latency, the
// slots it sums, and ledger:verify over everything. BENCH_LEDGER_DATABASE_URL is dropped and recreated.
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
const { settlePayment } = await import("@/lib/payments/settlement");
const { getBalance } = await import("@/lib/ledger/balance");
const { verifyLedger } = await import("@/lib/ledger/verify");
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

async function run(label: string, merchantCount: number) {
  const owners = await merchants(merchantCount);
  const pending = Array.from({ length: settles }, (_, index) => owners[index % owners.length]!);
  const payments: Array<{ merchantId: number; paymentId: number }> = [];
  await inParallel(pending, 16, async (merchantId) => {
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount: "10.00", currency: "EUR" },
      { source: "api", autoSettleMs: 0 },
    );
    payments.push({ merchantId, paymentId });
  });
  // Every 20 ms: how many backends of this database wait on a lock (a row, a transaction).
  let samples = 0;
  let waiting = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const [row] = await watcher<{ count: number }[]>`
        select count(*)::int as count from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`;
      samples++;
      waiting += row!.count;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const latencies = await inParallel(payments, concurrency, ({ merchantId, paymentId }) =>
    settlePayment(db, paymentId, { outcome: "completed" }, merchantId),
  );
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  return {
    owners,
    row: {
      run: label,
      merchants: merchantCount,
      settles: payments.length,
      "settles/s": Math.round(payments.length / seconds),
      "p50 ms": percentile(latencies, 50).toFixed(1),
      "p99 ms": percentile(latencies, 99).toFixed(1),
      "backends waiting on a lock (mean)": (waiting / samples).toFixed(2),
    },
  };
}

const one = await run("one merchant", 1);
const eight = await run("eight merchants", 8);
console.log(markdownTable([one.row, eight.row]));
console.log(
  `\none merchant / eight merchants: ${(Number(one.row["settles/s"]) / Number(eight.row["settles/s"])).toFixed(2)}`,
);

const [merchantId] = one.owners;
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
await watcher.end();
await closeDatabase();
