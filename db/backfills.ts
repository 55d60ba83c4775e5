// Data migrations that would hold a schema migration's locks too long: run after the schema's migrations
// (migrateDatabase), a batch per short transaction, each recording how far it got in `backfills`, so that a
// restart resumes and several servers starting at once share the work instead of repeating it.
import { sql } from "drizzle-orm";
import { selectRows, type Database, type Executor } from "./client";

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

const STEPS: Record<string, Batch> = {
  "currency.1.payments": byId("payments"),
  "currency.2.refunds": byId("refunds"),
  "currency.3.payment_links": byId("payment_links"),
  "currency.4.payment_daily_totals": rollup("payment_daily_totals"),
  "currency.5.refund_daily_totals": rollup("refund_daily_totals"),
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
