// `npm run bench:reports` (issue 69, DESIGN.md "Time zone", "Payout reconciliation"): over real HTTP on
// PostgreSQL (BENCH_DATABASE_URL names any database, recreated first), one merchant with BENCH_TRANSACTIONS
// (10,000,000) balance transactions over 400 days and a USD payout each of the last 40 days; then, one request at
// a time, 30 each: one payment's page (the yardstick), last month's summary in UTC and in Europe/Berlin, and its
// payout reconciliation in both. The transactions and their totals are written by SQL in one pass each (the
// postings' own paths are measured elsewhere); their figures add up, the payouts' lines are that day's totals.
// Needs a production build (`npm run build`).
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { time } from "./filters";
import { appServerEnv, freshDatabase, markdownTable, SERVER_NODE_FLAGS, startScript } from "./harness";
import { seedBenchmark, seedDailyPayouts } from "./seed";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_reports";
const transactionCount = Number(process.env.BENCH_TRANSACTIONS ?? 10_000_000);
const port = 4900 + Math.floor(Math.random() * 90);
const DAYS = 400;

process.env.DATABASE_URL = databaseUrl;
// The seed's statements run for minutes: this process's connections wait for them (the server keeps its own).
process.env.DATABASE_STATEMENT_TIMEOUT_MS = "0";
await freshDatabase(databaseUrl);
const seed = await seedBenchmark(databaseUrl, 10, 1);
const { getDb, closeDatabase, selectRows } = await import("@/db/client");
const db = getDb();
const [merchant] = await selectRows<{ merchant_id: string }>(
  db,
  sql`select merchant_id from users where email = ${seed.email}`,
);
const merchantId = Number(merchant!.merchant_id);

const seeded = performance.now();
// A payment or (one in twelve) a refund every 400 days / N, the last a second ago: amounts 10.00–99.99.
await db.execute(sql`
  insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status, available_on,
                                    created_at)
  select ${merchantId}, kind, i, 'USD', amount, fee, amount - fee, 'available', at + interval '2 days', at
  from generate_series(1, ${transactionCount}) as i,
       lateral (select now() - ${DAYS} * interval '1 day' * (1 - i::float8 / ${transactionCount}) as at,
                       case when i % 12 = 0 then 'refund' else 'payment' end as kind,
                       (10 + (i::bigint * 7919) % 9000 / 100.0)::numeric(12, 2) as base) picked,
       lateral (select case when kind = 'refund' then -base else base end as amount,
                       case when kind = 'refund' then 0 else round(base * 0.029 + 0.30, 2) end as fee) money`);
for (const [table, column, bucket] of [
  ["balance_transaction_daily_totals", "day", (at: string) => `(${at} at time zone 'UTC')::date`],
  [
    "balance_transaction_quarter_hour_totals",
    "quarter_hour",
    (at: string) => `date_bin('15 minutes', ${at}, timestamptz '2000-01-01 00:00:00+00')`,
  ],
] as const)
  await db.execute(
    sql.raw(`insert into ${table} as d (merchant_id, ${column}, type, currency, slot, count, amount, fee, net, available)
      select merchant_id, at, type, currency, 0, sum(count), sum(amount), sum(fee), sum(net), sum(available)
      from (select merchant_id, ${bucket("created_at")} as at, type, currency, 1 as count, amount, fee, net,
                   0::numeric as available
            from balance_transactions where merchant_id = ${merchantId}
            union all
            select merchant_id, ${bucket("available_on")}, type, currency, 0, 0, 0, 0, net
            from balance_transactions where merchant_id = ${merchantId}) part
      group by 1, 2, 3, 4
      on conflict (merchant_id, ${column}, type, currency, slot) do update
        set count = d.count + excluded.count, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
            net = d.net + excluded.net, available = d.available + excluded.available`),
  );
await db.execute(sql`
  insert into ledger_balances as b (merchant_id, account, currency, slot, amount)
  select ${merchantId}, 'available', 'USD', 0, sum(net) from balance_transactions
  where merchant_id = ${merchantId} and currency = 'USD'
  on conflict (merchant_id, account, currency, slot) do update set amount = b.amount + excluded.amount`);
// A payout each of the last 40 days, its lines that day's totals (as bench:api's ledger seed has them).
const payoutSql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
await seedDailyPayouts(payoutSql, merchantId);
await payoutSql.end();
for (const table of [
  "balance_transactions",
  "balance_transaction_daily_totals",
  "balance_transaction_quarter_hour_totals",
  "payouts",
  "payout_type_totals",
])
  await db.execute(sql.raw(`vacuum analyze ${table}`));
const seedSeconds = ((performance.now() - seeded) / 1000).toFixed(1);
const [rows] = await selectRows<{ daily: string; quarters: string }>(
  db,
  sql`select (select count(*) from balance_transaction_daily_totals where merchant_id = ${merchantId}) as daily,
             (select count(*) from balance_transaction_quarter_hour_totals where merchant_id = ${merchantId}) as quarters`,
);
// A streaming standby of this PostgreSQL (the CI's) replays the seed's WAL: measured once it has, not beside it.
for (;;) {
  const [lag] = await selectRows<{ behind: boolean }>(
    db,
    sql`select exists (select 1 from pg_stat_replication where replay_lsn < pg_current_wal_lsn()) as behind`,
  );
  if (!lag!.behind) break;
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
await closeDatabase();

const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port, { DATABASE_STATEMENT_TIMEOUT_MS: "30000" }),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);
try {
  const now = new Date();
  const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
  const from = iso(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = iso(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const month = `currency=USD&from=${from}&to=${to}`;
  const headers = { Authorization: `Bearer ${seed.tokens[0]!}` };
  const pages: Array<[string, string]> = [
    ["GET /api/payments/{id} (one payment: the yardstick)", `/api/payments/${seed.firstPaymentId}`],
    ["GET /api/reports/balance-summary, last month (UTC)", `/api/reports/balance-summary?${month}`],
    [
      "GET /api/reports/balance-summary, last month (Europe/Berlin)",
      `/api/reports/balance-summary?${month}&timezone=Europe/Berlin`,
    ],
    [
      "GET /api/reports/balance-summary, last month (Asia/Kolkata)",
      `/api/reports/balance-summary?${month}&timezone=Asia/Kolkata`,
    ],
    [
      "GET /api/reports/payout-reconciliation, last month (UTC)",
      `/api/reports/payout-reconciliation?${month}`,
    ],
    [
      "GET /api/reports/payout-reconciliation, last month (Europe/Berlin)",
      `/api/reports/payout-reconciliation?${month}&timezone=Europe/Berlin`,
    ],
  ];
  const results: Array<Record<string, string | number>> = [];
  for (const [name, path] of pages)
    results.push({ Request: name, ...(await time(`${server.baseUrl}${path}`, headers)) });
  console.log(
    `${transactionCount.toLocaleString("en-US")} balance transactions over ${DAYS} days, seeded in ${seedSeconds} s; ` +
      `${rows!.daily} daily and ${rows!.quarters} quarter-hour total rows; 40 payouts. ${SERVER_NODE_FLAGS.join(" ") || ""}`,
  );
  console.log(markdownTable(results));
} finally {
  await server.stop();
}
