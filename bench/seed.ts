// Seeds a benchmark merchant on PostgreSQL: 1,000,000 payments in one INSERT … SELECT generate_series (seconds,
// not row by row), and 64 API tokens under a raised rate limit. Prints one JSON object.
import "../scripts/load-env";
import postgres from "postgres";
import { closeDatabase, migrateDatabase } from "@/db/client";
import { hashPassword } from "@/lib/accounts/passwords";
import { generateToken, hashToken, tokenDisplayHint } from "@/lib/tokens/format";

export type BenchSeed = {
  merchantId: number;
  tokens: string[];
  payments: number;
  firstPaymentId: number;
  email: string;
  password: string;
  /** BENCH_LEDGER=1: how long the ledger's backfill (migration 0036's) took to post the seeded payments. */
  ledgerBackfillSeconds?: number;
  /** A customer with a tenth of the payments: its list has a deep page 50,000 (bench/filters.ts). */
  bigCustomer: string;
};

const BENCH_PASSWORD = "bench passphrase";
const BIG_CUSTOMER = "cus_big";
/** A payment every 3 s: 10,000,000 of them span about a year, 28,800 a day (the lists seek by day). */
const SECONDS_APART = 3;

/**
 * 0.1% of the payments disputed, a day after they completed (completed and never refunded: g % 1000 = 500):
 * the last week's still need a response, the older ones were won or lost. The payments carry their status.
 */
async function seedDisputes(sql: postgres.Sql, merchantId: number) {
  await sql`
    with disputed as (
      select id, merchant_seq, amount, currency, created_at + interval '1 day' as opened,
             case when created_at > now() - interval '8 days' then 'needs_response'
                  else (array['won', 'lost', 'lost'])[1 + (merchant_seq / 1000) % 3] end as status
      from payments where merchant_id = ${merchantId} and merchant_seq % 1000 = 500 and created_at < now() - interval '1 day'),
    opened as (
      insert into disputes (merchant_id, payment_id, amount, currency, reason, status, evidence_due_by, closed_at,
                            created_at, updated_at)
      select ${merchantId}, id, amount, currency,
             (array['fraudulent', 'product_not_received', 'duplicate', 'general'])[1 + (merchant_seq / 1000) % 4],
             status, opened + interval '7 days',
             case when status = 'needs_response' then null else opened + interval '7 days' end, opened, opened
      from disputed returning payment_id, status)
    update payments set dispute_status = opened.status from opened
    where payments.merchant_id = ${merchantId} and payments.id = opened.payment_id`;
}

/**
 * The ledger as an upgrade builds it: migration 0036's backfill steps set to walk the seeded payments and
 * refunds, then run as a starting server runs them (migrateDatabase). Returns the seconds it took.
 */
async function backfillLedger(sql: postgres.Sql): Promise<number> {
  await sql`update backfills set position = '', done_at = null,
              through = (select coalesce(max(id), 0)::text from payments) where name = 'ledger.1.payments'`;
  await sql`update backfills set position = '', done_at = null,
              through = (select coalesce(max(id), 0)::text from refunds) where name = 'ledger.2.refunds'`;
  const started = performance.now();
  await migrateDatabase();
  await closeDatabase();
  return Math.round((performance.now() - started) / 100) / 10;
}

/**
 * A USD payout each of the last 40 days with its reconciliation lines, that day's totals by type, for the
 * payout reconciliation's timing (issue 69; bench/money-pages.ts and bench/reports.ts). Made here, not through create_payout: a payout of all would mark
 * the seed's millions of transactions, which the report never reads. Its figures therefore do not reconcile.
 */
export async function seedDailyPayouts(sql: postgres.Sql, merchantId: number): Promise<void> {
  await sql`
    with days as (
      select day, type, sum(count) as count, sum(amount) as amount, sum(fee) as fee, sum(net) as net
      from balance_transaction_daily_totals
      where merchant_id = ${merchantId} and currency = 'USD' and day >= current_date - 40 and day < current_date
      group by day, type),
    made as (
      insert into payouts (merchant_id, currency, amount, status, arrival_date, destination_last4, reconciled,
                           created_at, updated_at)
      select ${merchantId}, 'USD', sum(net), 'paid', day + 2, '3000', true,
             (day + 1)::timestamp at time zone 'UTC', (day + 2)::timestamp at time zone 'UTC'
      from days group by day
      returning id, created_at)
    insert into payout_type_totals (merchant_id, payout_id, type, count, amount, fee, net)
    select ${merchantId}, made.id, days.type, days.count, days.amount, days.fee, days.net
    from made join days on days.day + 1 = (made.created_at at time zone 'UTC')::date`;
}

export async function seedBenchmark(
  databaseUrl: string,
  paymentCount: number,
  tokenCount = 64,
): Promise<BenchSeed> {
  await migrateDatabase();
  await closeDatabase();
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [merchant] = await sql<{ id: string }[]>`
      insert into merchants (name, rate_limit_per_minute) values ('Bench merchant', 100000000) returning id`;
    const merchantId = Number(merchant!.id);
    await sql`insert into payment_sequences (merchant_id, payments_count, last_created_at) values (${merchantId}, ${paymentCount}, now())`;
    const email = `bench-${merchantId}@example.test`;
    await sql`insert into users (merchant_id, email, name, password_hash) values (${merchantId}, ${email}, 'Bench', ${await hashPassword(BENCH_PASSWORD)})`;
    // BENCH_TOKEN_MERCHANTS=64: the tokens spread over that many merchants (the first one holds the seeded
    // payments; the others start empty), so a create load is many merchants' instead of one's.
    const owners = [merchantId];
    for (let index = 1; index < Number(process.env.BENCH_TOKEN_MERCHANTS ?? 1); index++) {
      const [other] = await sql<{ id: string }[]>`
        insert into merchants (name, rate_limit_per_minute) values (${`Bench merchant ${index}`}, 100000000) returning id`;
      owners.push(Number(other!.id));
    }
    const tokens = Array.from({ length: tokenCount }, () => generateToken());
    await sql`insert into api_tokens ${sql(tokens.map((token, index) => ({ merchant_id: owners[index % owners.length]!, name: `bench ${index}`, token_hash: hashToken(token), display_hint: tokenDisplayHint(token), scope: "write" })))}`;
    await sql`
      insert into payments (merchant_id, merchant_seq, external_id, customer_id, status, amount, currency, amount_refunded, source, created_at, updated_at)
      select ${merchantId}, g, 'bench_' || g,
             case when g % 10 = 0 then ${BIG_CUSTOMER} else 'cus_' || (g % 50000) end,
             (array['completed', 'completed', 'completed', 'failed', 'pending'])[1 + g % 5],
             amount, currency,
             -- 1 in 40 refunded in full, 1 in 40 by half (both completed: g % 5 is 1 and 2).
             case g % 40 when 1 then amount when 2 then round(amount / 2, minor) else 0 end,
             'api',
             now() - make_interval(secs => (${paymentCount} - g) * ${SECONDS_APART}),
             now() - make_interval(secs => (${paymentCount} - g) * ${SECONDS_APART})
      from generate_series(1, ${paymentCount}) as g,
           -- 70% USD, 20% EUR, 5% JPY, 5% KWD, in runs of 7 so that a customer pays in several of them.
           lateral (select (array['USD', 'EUR', 'JPY', 'KWD'])[case when (g / 7) % 20 < 14 then 1 when (g / 7) % 20 < 18 then 2 when (g / 7) % 20 = 18 then 3 else 4 end] as currency) c,
           lateral (select case currency when 'JPY' then 0 when 'KWD' then 3 else 2 end as minor) m,
           lateral (select round(((g::bigint * 7919) % 500000) / 100.0 + 1, minor) as amount) a`;
    // Their refunds, succeeded a minute after the payment.
    await sql`
      insert into refunds (merchant_id, payment_id, customer_id, amount, currency, status, reason, settled_at, created_at, updated_at)
      select merchant_id, id, customer_id, amount_refunded, currency, 'succeeded', 'requested_by_customer',
             created_at + interval '1 minute', created_at + interval '1 minute', created_at + interval '1 minute'
      from payments where merchant_id = ${merchantId} and amount_refunded > 0`;
    // The Overview's rollup, as the create and settle statements would have kept it.
    await sql`
      insert into payment_daily_totals (merchant_id, customer_id, day, status, refund_state, currency, count, volume)
      select merchant_id, scope, (created_at at time zone 'UTC')::date, status,
             case when amount_refunded = 0 then 'none' when amount_refunded < amount then 'partial' else 'full' end,
             currency, count(*), sum(amount)
      from payments, lateral (values (''), (customer_id)) as scopes (scope)
      where merchant_id = ${merchantId} and scope is not null group by 1, 2, 3, 4, 5, 6`;
    await sql`
      insert into refund_daily_totals (merchant_id, day, currency, count, amount)
      select merchant_id, (settled_at at time zone 'UTC')::date, currency, count(*), sum(amount)
      from refunds where merchant_id = ${merchantId} group by 1, 2, 3`;
    await seedDisputes(sql, merchantId);
    const ledgerBackfillSeconds = process.env.BENCH_LEDGER === "1" ? await backfillLedger(sql) : undefined;
    if (ledgerBackfillSeconds !== undefined) await seedDailyPayouts(sql, merchantId);
    await sql`
      insert into refund_daily_counts (merchant_id, customer_id, day, status, count)
      select merchant_id, scope, (created_at at time zone 'UTC')::date, status, count(*)
      from refunds, lateral (values (''), (customer_id)) as scopes (scope)
      where merchant_id = ${merchantId} and scope is not null group by 1, 2, 3, 4`;
    await sql`
      insert into customers (merchant_id, customer_id, payments_count, first_payment_at, last_payment_at)
      select merchant_id, customer_id, count(*), min(created_at), max(created_at)
      from payments where merchant_id = ${merchantId} and customer_id is not null group by 1, 2`;
    await sql`
      insert into customer_volumes (merchant_id, customer_id, currency, completed, refunded)
      select merchant_id, customer_id, currency, coalesce(sum(amount) filter (where status = 'completed'), 0),
             sum(amount_refunded)
      from payments where merchant_id = ${merchantId} and customer_id is not null group by 1, 2, 3`;
    // A live database is vacuumed by autovacuum; a fresh bulk load is not yet (and this machine runs with
    // autovacuum off). Index-only scans need the visibility map, and the planner the rollups' statistics.
    for (const table of [
      "payments",
      "refunds",
      "customers",
      "customer_volumes",
      "payment_daily_totals",
      "refund_daily_totals",
      "refund_daily_counts",
      "disputes",
      ...(ledgerBackfillSeconds === undefined ? [] : ["balance_transactions", "ledger_entries"]),
    ])
      await sql`vacuum analyze ${sql(table)}`;
    // The load's pages written out now, not by the checkpointer during the first rounds' measurements.
    await sql`checkpoint`;
    const [first] = await sql<
      { id: string }[]
    >`select min(id) as id from payments where merchant_id = ${merchantId}`;
    const firstPaymentId = Number(first!.id);
    return {
      merchantId,
      tokens,
      payments: paymentCount,
      firstPaymentId,
      email,
      password: BENCH_PASSWORD,
      bigCustomer: BIG_CUSTOMER,
      ledgerBackfillSeconds,
    };
  } finally {
    await sql.end();
  }
}
