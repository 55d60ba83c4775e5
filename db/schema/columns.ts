// Shared column helpers, so every table spells ids and timestamps the same way (the merchant id, which
// references merchants, is accounts.ts's merchantIdColumn).
import { bigint, timestamp } from "drizzle-orm/pg-core";

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
