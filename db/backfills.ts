// Data migrations that would hold a schema migration's locks too long: run after the schema's migrations
// (migrateDatabase), a batch per short transaction, each recording how far it got in `backfills`, so that a
// restart resumes and several servers starting at once share the work instead of repeating it.
import { sql, type SQL } from "drizzle-orm";
import type { Database, Executor } from "./database-types";

/** Rows of a statement, whichever driver answered (client.ts's selectRows, which imports this module). */
async function selectRows<Row>(executor: Executor, query: SQL): Promise<Row[]> {
  const result: unknown = await executor.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Row[];
}

/** Rows per transaction: a batch locks at most these, for some milliseconds. */
const BATCH = 5_000;

type Step = {
  position: string;
  through: string;
};

/** Does one batch of a step; returns where the next starts, or null when the step is done. */
type Batch = (tx: Executor, step: Step, size: number) => Promise<string | null>;

/** Payments, refunds and links are walked by id: every merchant of currency_backfills in one pass. */
function byId(table: "payments" | "refunds" | "payment_links"): Batch {
  return async (tx, { position, through }, size) => {
    const from = BigInt(position || "0");
    const to = from + BigInt(size);
    await tx.execute(sql`update ${sql.identifier(table)} t set currency = b.currency
      from currency_backfills b
      where t.merchant_id = b.merchant_id and t.id > ${from.toString()} and t.id <= ${to.toString()}`);
    return to >= BigInt(through || "0") ? null : to.toString();
  };
}

/**
 * A rollup's rows of a backfilled merchant move from the `USD` default to its currency, merged into any row
 * the merchant's new payments have made there meanwhile. Walked per merchant in key order; run after the
 * payments' step, so no later change of an old payment writes a `USD` row behind the walk.
 */
function rollup(table: "payment_daily_totals" | "refund_daily_totals"): Batch {
  const keys = table === "payment_daily_totals" ? ["customer_id", "day", "status", "refund_state"] : ["day"];
  const sums = table === "payment_daily_totals" ? ["count", "volume"] : ["count", "amount"];
  const keyList = sql.raw(keys.join(", "));
  const sumList = sql.raw(sums.join(", "));
  const merge = sql.raw(sums.map((sum) => `${sum} = ${table}.${sum} + excluded.${sum}`).join(", "));
  return async (tx, { position }, size) => {
    const [merchantId, ...after] = position ? (JSON.parse(position) as string[]) : [];
    const [merchant] = await selectRows<{ merchant_id: string; currency: string }>(
      tx,
      merchantId === undefined
        ? sql`select merchant_id::text, currency from currency_backfills order by merchant_id limit 1`
        : sql`select merchant_id::text, currency from currency_backfills
              where merchant_id >= ${merchantId} order by merchant_id limit 1`,
    );
    if (!merchant) return null;
    const resumes = merchant.merchant_id === merchantId && after.length === keys.length;
    const tuple = sql.raw(`(${keys.join(", ")})`);
    // Native types, so the comparison is a range of the primary key's index, not a filter over the merchant.
    const resumeAt = sql.join(
      keys.map((key, index) => (key === "day" ? sql`${after[index]}::date` : sql`${after[index]}`)),
      sql`, `,
    );
    const moved = await selectRows<Record<string, string>>(
      tx,
      sql`with picked as (
            select ${keyList} from ${sql.identifier(table)}
            where merchant_id = ${merchant.merchant_id} and currency = 'USD'
              ${resumes ? sql`and ${tuple} > (${resumeAt})` : sql``}
            order by ${keyList} limit ${size}),
          gone as (
            delete from ${sql.identifier(table)} t using picked
            where t.merchant_id = ${merchant.merchant_id} and t.currency = 'USD'
              and ${sql.join(
                keys.map((key) => sql.raw(`t.${key} = picked.${key}`)),
                sql` and `,
              )}
            returning t.*),
          merged as (
            insert into ${sql.identifier(table)} (merchant_id, ${keyList}, currency, ${sumList})
            select merchant_id, ${keyList}, ${merchant.currency}, ${sumList} from gone
            on conflict (merchant_id, ${keyList}, currency) do update set ${merge})
          select ${sql.raw(keys.map((key) => `${key}::text as ${key}`).join(", "))} from picked
          order by ${sql.raw(keys.map((key) => `${key} desc`).join(", "))} limit 1`,
    );
    const last = moved[0];
    // A short batch finished this merchant: the next batch starts at the next one.
    if (!last) return JSON.stringify([(BigInt(merchant.merchant_id) + 1n).toString()]);
    return JSON.stringify([merchant.merchant_id, ...keys.map((key) => last[key])]);
  };
}

/**
 * Migration 0036 (the ledger): payments completed and refunds made before it post their balance transactions,
 * as the ledger would have. No fee was taken when they completed, so a payment posts fee 0 and net = amount,
 * available at once (it completed before the platform held money back); a refund that has not failed takes its
 * amount back (a failed one would post and return it: nothing). Frozen like a migration, so written out here.
 */
function ledger(table: "payments" | "refunds"): Batch {
  return async (tx, { position, through }, size) => {
    const from = BigInt(position || "0");
    const to = from + BigInt(size);
    const picked =
      table === "payments"
        ? sql`update payments set fee = 0, net = amount
              where id > ${from.toString()} and id <= ${to.toString()} and status = 'completed' and fee is null
              returning merchant_id, id, currency, amount, 'payment' as type, coalesce(settled_at, updated_at) as at,
                        id as payment_id, external_id, customer_id`
        : sql`select r.merchant_id, r.id, r.currency, -r.amount as amount, 'refund' as type, r.created_at as at,
                     p.id as payment_id, p.external_id, p.customer_id
              from refunds r join payments p on p.merchant_id = r.merchant_id and p.id = r.payment_id
              where r.id > ${from.toString()} and r.id <= ${to.toString()}
                and (r.status <> 'failed' or exists (
                  -- Failed since the migration: its failure gave the amount back, so it is taken here.
                  select 1 from balance_transactions b
                  where b.merchant_id = r.merchant_id and b.source_id = r.id and b.type = 'refund_failure'))`;
    await tx.execute(sql`with picked as (${picked}),
      posted as (
        insert into balance_transactions (merchant_id, type, source_id, payment_id, external_id, customer_id,
                                          currency, amount, fee, net, status, available_on, created_at)
        select merchant_id, type, id, payment_id, external_id, customer_id, currency, amount, 0, amount,
               'available', at, at from picked
        returning merchant_id, id, type, currency, amount, fee, net, created_at),
      counted as (
        -- Counted here, not by ledger.3: these transactions come after the id it walks up to. Their amount
        -- and fee too: this runs after migration 0046, so they come after the id ledger.4 walks up to.
        -- Available at once: its net is also what became available that day (migration 0062's column).
        insert into balance_transaction_daily_totals as d (merchant_id, day, type, currency, slot, count, amount, fee, net,
                                                           available)
        select merchant_id, (created_at at time zone 'UTC')::date, type, currency, 0, count(*), sum(amount),
               sum(fee), sum(net), sum(net)
        from posted group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict (merchant_id, day, type, currency, slot) do update
          set count = d.count + excluded.count, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
              net = d.net + excluded.net, available = d.available + excluded.available),
      quartered as (
        -- And in its quarter hour's (migration 0062), which the migration could not count: it posts them later.
        insert into balance_transaction_quarter_hour_totals as q (merchant_id, quarter_hour, type, currency, slot,
                                                                  count, amount, fee, net, available)
        select merchant_id, date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'), type, currency,
               0, count(*), sum(amount), sum(fee), sum(net), sum(net)
        from posted group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict (merchant_id, quarter_hour, type, currency, slot) do update
          set count = q.count + excluded.count, amount = q.amount + excluded.amount, fee = q.fee + excluded.fee,
              net = q.net + excluded.net, available = q.available + excluded.available),
      lines as (
        select merchant_id, id, currency, account, moved from posted,
               lateral (values ('available', amount), ('clearing', -amount)) as entry (account, moved)),
      entered as (
        insert into ledger_entries (merchant_id, transaction_id, posting, account, currency, amount, created_at)
        select merchant_id, id, 'post', account, currency, moved, now() from lines)
      insert into ledger_balances as b (merchant_id, account, currency, slot, amount)
      select merchant_id, account, currency, 0, sum(moved) from lines group by 1, 2, 3 order by 1, 2, 3
      on conflict (merchant_id, account, currency, slot) do update set amount = b.amount + excluded.amount`);
    return to >= BigInt(through || "0") ? null : to.toString();
  };
}

/**
 * Migration 0044: the balance transactions posted before their daily totals existed are counted into them,
 * by id up to the highest then (later ones were counted by the statements that posted them).
 */
const balanceTransactionDailyTotals: Batch = async (tx, { position, through }, size) => {
  const from = BigInt(position || "0");
  const last = BigInt(through || "0");
  // Never past `through`: the ids after it (ledger.1's and ledger.2's among them) counted themselves.
  const to = from + BigInt(size) < last ? from + BigInt(size) : last;
  await tx.execute(sql`insert into balance_transaction_daily_totals as d (merchant_id, day, type, currency, slot, count, net)
    select merchant_id, (created_at at time zone 'UTC')::date, type, currency, 0, count(*), sum(net)
    from balance_transactions where id > ${from.toString()} and id <= ${to.toString()}
    group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (merchant_id, day, type, currency, slot) do update
      set count = d.count + excluded.count, net = d.net + excluded.net`);
  return to >= last ? null : to.toString();
};

/**
 * Migration 0046: the amount and fee of the balance transactions posted before the daily totals kept them are
 * added in, by id up to the highest then (count and net were counted already; later ones add their own).
 */
const balanceTransactionDailySums: Batch = async (tx, { position, through }, size) => {
  const from = BigInt(position || "0");
  const last = BigInt(through || "0");
  const to = from + BigInt(size) < last ? from + BigInt(size) : last;
  await tx.execute(sql`insert into balance_transaction_daily_totals as d (merchant_id, day, type, currency, slot, amount, fee)
    select merchant_id, (created_at at time zone 'UTC')::date, type, currency, 0, sum(amount), sum(fee)
    from balance_transactions where id > ${from.toString()} and id <= ${to.toString()}
    group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (merchant_id, day, type, currency, slot) do update
      set amount = d.amount + excluded.amount, fee = d.fee + excluded.fee`);
  return to >= last ? null : to.toString();
};

/**
 * Migration 0056: the balance transactions posted before they named their payment get its id, order and
 * customer: a payment's own, a refund's or a dispute's payment (payouts name none). Walked by merchant, then
 * by id within it, up to `size` of one merchant's rows a batch: a range of the primary key's index, and on
 * Citus statements on one worker's shards (ids there are sparse, from each node's own range, so a walk by id
 * alone would step through nothing for ever). Rows already named are left as they are, so it walks every row
 * there is, those an old process posted during an upgrade too.
 */
const balanceTransactionPayments: Batch = async (tx, { position }, size) => {
  const [walked, afterId] = position ? (JSON.parse(position) as [string, string]) : ["0", "0"];
  const [merchant] = await selectRows<{ id: string }>(
    tx,
    sql`select id::text from merchants where id >= ${walked} order by id limit 1`,
  );
  if (!merchant) return null;
  const merchantId = merchant.id;
  const from = merchantId === walked ? afterId : "0";
  const [edge] = await selectRows<{ id: string }>(
    tx,
    sql`select id::text from balance_transactions where merchant_id = ${merchantId} and id > ${from}
        order by id offset ${size - 1} limit 1`,
  );
  const range = sql`b.merchant_id = ${merchantId} and b.id > ${from} ${edge ? sql`and b.id <= ${edge.id}` : sql``}
    and b.payment_id is null`;
  const fill = sql`payment_id = p.id, external_id = p.external_id, customer_id = p.customer_id`;
  await tx.execute(sql`update balance_transactions b set ${fill} from payments p
    where ${range} and b.type = 'payment' and p.merchant_id = ${merchantId} and p.id = b.source_id`);
  await tx.execute(sql`update balance_transactions b set ${fill} from refunds r, payments p
    where ${range} and b.type in ('refund', 'refund_failure') and r.merchant_id = ${merchantId}
      and r.id = b.source_id and p.merchant_id = ${merchantId} and p.id = r.payment_id`);
  await tx.execute(sql`update balance_transactions b set ${fill} from disputes d, payments p
    where ${range} and b.type in ('dispute', 'dispute_won') and d.merchant_id = ${merchantId}
      and d.id = b.source_id and p.merchant_id = ${merchantId} and p.id = d.payment_id`);
  // A short batch finished this merchant: the next starts at the next one.
  return JSON.stringify(edge ? [merchantId, edge.id] : [(BigInt(merchantId) + 1n).toString(), "0"]);
};

const STEPS: Record<string, Batch> = {
  "currency.1.payments": byId("payments"),
  "currency.2.refunds": byId("refunds"),
  "currency.3.payment_links": byId("payment_links"),
  "currency.4.payment_daily_totals": rollup("payment_daily_totals"),
  "currency.5.refund_daily_totals": rollup("refund_daily_totals"),
  "ledger.1.payments": ledger("payments"),
  "ledger.2.refunds": ledger("refunds"),
  "ledger.3.balance_transaction_daily_totals": balanceTransactionDailyTotals,
  "ledger.4.balance_transaction_daily_sums": balanceTransactionDailySums,
  "ledger.5.balance_transaction_payments": balanceTransactionPayments,
};

/**
 * Runs every unfinished step to its end, in name order. Each batch locks its step's row, so a second server
 * running this waits for the batch in flight and then takes the next one; it returns when all are done.
 */
export async function runBackfills(db: Database, size = BATCH): Promise<void> {
  for (;;) {
    const more = await db.transaction(async (tx) => {
      const [step] = await selectRows<{ name: string; position: string; through: string }>(
        tx,
        sql`select name, position, through from backfills where done_at is null
            order by name limit 1 for update`,
      );
      if (!step) return false;
      const batch = STEPS[step.name];
      if (!batch) throw new Error(`No backfill step is named ${step.name}`);
      const next = await batch(tx, step, size);
      await tx.execute(
        next === null
          ? sql`update backfills set done_at = now() where name = ${step.name}`
          : sql`update backfills set position = ${next} where name = ${step.name}`,
      );
      return true;
    });
    if (!more) return;
  }
}
