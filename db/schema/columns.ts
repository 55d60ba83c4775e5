// Shared column helpers, so every table spells ids and timestamps the same way (the merchant id, which
// references merchants, is accounts.ts's merchantIdColumn).
import { bigint, timestamp } from "drizzle-orm/pg-core";

export const id = () => bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity();
/** A partitioned table's id: its primary key must include the partition key, so it is declared with it. */
export const partitionedId = () => bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity();
export const createdAt = () =>
  timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
export const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
