import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { DomainError } from "./errors";

/** Tables whose rows the API tells apart as another merchant's (403) or none (404), each indexed on id alone. */
export type OwnedTable =
  "payments" | "refunds" | "events" | "webhook_endpoints" | "webhook_deliveries" | "payment_links";

/**
 * Whether any merchant has row `id` of `table`: asked only after a lookup scoped to the caller's merchant found
 * nothing, to choose the contract's 403 (another merchant's) over 404 (none). Every lookup names the caller's
 * merchant first, so its own rows take one shard's index; only this error path asks by id alone (an index of
 * its own; every shard, on Citus).
 */
export async function rowExists(db: Executor, table: OwnedTable, id: number | string): Promise<boolean> {
  const [row] = await selectRows(db, sql`select 1 from ${sql.identifier(table)} where id = ${id} limit 1`);
  return row !== undefined;
}

const NOUNS: Record<OwnedTable, string> = {
  payments: "payment",
  refunds: "refund",
  events: "event",
  webhook_endpoints: "webhook endpoint",
  webhook_deliveries: "webhook delivery",
  payment_links: "payment link",
};

/**
 * The one answer once a lookup scoped to `merchantId` found no row `id`: forbidden when another merchant has it,
 * else not_found. The operator (merchantId null) looked for any merchant's row, so theirs is only ever a miss.
 */
export async function unownedRowError(
  db: Executor,
  table: OwnedTable,
  id: number | string,
  merchantId: number | null,
): Promise<DomainError> {
  const noun = NOUNS[table];
  if (merchantId !== null && (await rowExists(db, table, id)))
    return new DomainError("forbidden", `Not your ${noun}.`);
  return new DomainError("not_found", `${noun[0]!.toUpperCase()}${noun.slice(1)} ${id} was not found.`);
}
