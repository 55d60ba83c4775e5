// Shared column helpers, so every table spells ids and timestamps the same way (the merchant id, which
// references merchants, is accounts.ts's merchantIdColumn).
import { bigint, foreignKey, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";

/** A global table's id (merchants, users, tokens): the primary key by itself. */
export const id = () => bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity();
/**
 * A merchant-owned row's id: unique by itself (one identity), but its primary key is declared with the table,
 * merchant first (`primaryKey({ columns: [t.merchantId, t.id] })`), so that Citus can shard by merchant (DESIGN.md, "Citus: sharded by
 * merchant"); a partitioned table adds its partition key after the id.
 */
export const rowId = () => bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity();
export const createdAt = () =>
  timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
export const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A foreign key between two merchant tables, merchant first: `(merchant_id, column)` to the target's
 * `(merchant_id, id)`, so both rows are one merchant's (and on Citus on one shard).
 */
export function sameMerchantKey(
  name: string,
  [merchantId, column]: [AnyPgColumn, AnyPgColumn],
  target: { merchantId: AnyPgColumn; id: AnyPgColumn },
) {
  return foreignKey({ name, columns: [merchantId, column], foreignColumns: [target.merchantId, target.id] });
}
