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
};

const BENCH_PASSWORD = "bench passphrase";

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
      insert into merchants (name, rate_limit_per_minute, payments_count) values ('Bench merchant', 100000000, ${paymentCount}) returning id`;
    const merchantId = Number(merchant!.id);
    const email = `bench-${merchantId}@example.test`;
    await sql`insert into users (merchant_id, email, name, password_hash) values (${merchantId}, ${email}, 'Bench', ${await hashPassword(BENCH_PASSWORD)})`;
    const tokens = Array.from({ length: tokenCount }, () => generateToken());
    await sql`insert into api_tokens ${sql(tokens.map((token, index) => ({ merchant_id: merchantId, name: `bench ${index}`, token_hash: hashToken(token), display_hint: tokenDisplayHint(token), scope: "write" })))}`;
    await sql`
      insert into payments (merchant_id, merchant_seq, external_id, customer_id, status, amount, source, created_at, updated_at)
      select ${merchantId}, g, 'bench_' || g, 'cus_' || (g % 50000),
             (array['completed', 'completed', 'completed', 'failed', 'pending'])[1 + g % 5],
             ((g::bigint * 7919) % 500000) / 100.0, 'api',
             now() - make_interval(secs => (${paymentCount} - g) * 0.5),
             now() - make_interval(secs => (${paymentCount} - g) * 0.5)
      from generate_series(1, ${paymentCount}) as g`;
    // The Overview's rollup, as the create and settle statements would have kept it.
    await sql`
      insert into payment_daily_totals (merchant_id, customer_id, day, status, count, volume)
      select merchant_id, scope, (created_at at time zone 'UTC')::date, status, count(*), sum(amount)
      from payments, lateral (values (''), (customer_id)) as scopes (scope)
      where merchant_id = ${merchantId} and scope is not null group by 1, 2, 3, 4`;
    await sql`
      insert into customers (merchant_id, customer_id, payments_count, completed_volume, refunded, first_payment_at, last_payment_at)
      select merchant_id, customer_id, count(*), coalesce(sum(amount) filter (where status = 'completed'), 0), 0,
             min(created_at), max(created_at)
      from payments where merchant_id = ${merchantId} and customer_id is not null group by 1, 2`;
    // A live database is vacuumed by autovacuum; a fresh bulk load is not yet, and index-only scans need it.
    await sql`vacuum analyze payments`;
    // The load's pages written out now, not by the checkpointer during the first rounds' measurements.
    await sql`checkpoint`;
    const [first] = await sql<
      { id: string }[]
    >`select min(id) as id from payments where merchant_id = ${merchantId}`;
    const firstPaymentId = Number(first!.id);
    return { merchantId, tokens, payments: paymentCount, firstPaymentId, email, password: BENCH_PASSWORD };
  } finally {
    await sql.end();
  }
}
