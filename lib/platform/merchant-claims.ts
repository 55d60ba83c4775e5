import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor } from "@/db/client";

/** A statement's merchant condition: `and <column> = <the merchant>`, or nothing for every merchant. */
export type MerchantScope = { and(column?: string): SQL };

export const EVERY_MERCHANT: MerchantScope = { and: () => sql`` };

function oneMerchant(merchantId: number): MerchantScope {
  return { and: (column = "merchant_id") => sql`and ${sql.raw(column)} = ${merchantId}::bigint` };
}

/** How many merchants one round of background work visits on Citus; the next round takes the rest. */
const MERCHANTS_PER_ROUND = 50;

/**
 * Background work over every merchant's rows (a settler, the webhook queue, payouts moving on) claims what it
 * takes with `FOR UPDATE SKIP LOCKED`. On Citus such a lock must stay in one shard: the merchants with due
 * rows are found first (a plain read over every shard) and each one's rows claimed on its own, the statement
 * naming the merchant (`merchant.and()`: `and merchant_id = …`). Elsewhere `work` runs once over every
 * merchant, and the scope adds nothing. Returns what the runs of `work` add up to.
 */
export async function forEachDueMerchant(
  db: Executor,
  due: { table: string; where: SQL },
  work: (merchant: MerchantScope) => Promise<number>,
): Promise<number> {
  if (!onCitus()) return work(EVERY_MERCHANT);
  const merchants = await selectRows<{ merchant_id: number | string }>(
    db,
    sql`select distinct merchant_id from ${sql.identifier(due.table)} where ${due.where}
        limit ${MERCHANTS_PER_ROUND}`,
  );
  let total = 0;
  for (const { merchant_id } of merchants) total += await work(oneMerchant(Number(merchant_id)));
  return total;
}

/**
 * Writes a batch that spans merchants (a webhook worker's results): in one go elsewhere; on Citus one merchant
 * at a time, each write naming its merchant, so no transaction spans shards.
 */
export async function eachMerchantOnCitus<T>(
  items: T[],
  merchantOf: (item: T) => number,
  write: (some: T[], merchant: MerchantScope) => Promise<void>,
): Promise<void> {
  if (!onCitus()) return write(items, EVERY_MERCHANT);
  const byMerchant = new Map<number, T[]>();
  for (const item of items) {
    const merchantId = merchantOf(item);
    byMerchant.set(merchantId, [...(byMerchant.get(merchantId) ?? []), item]);
  }
  for (const merchantId of [...byMerchant.keys()].sort((a, b) => a - b))
    await write(byMerchant.get(merchantId)!, oneMerchant(merchantId));
}
