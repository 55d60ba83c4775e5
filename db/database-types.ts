import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

// Apart from client.ts so a driver's module (embedded-connection.ts, which client.ts imports) can name them
// without importing client.ts back.

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  typeof schema,
  ExtractTablesWithRelations<typeof schema>
>;
/** What domain functions take: the database, or a transaction already under way. */
export type Executor = Database | Transaction;

export type Connection = {
  db: Database;
  /** See getBackgroundDb. */
  backgroundDb: Database;
  /** The migrations, then the changed function files (db/function-files.ts): returns those files. */
  migrate: () => Promise<string[]>;
  /** Subscribes to a NOTIFY channel (LISTEN on PostgreSQL, in-process on PGlite). */
  listen: (channel: string, onNotify: () => void) => Promise<void>;
  /** Opens the request pool's connections ahead of its first requests (`warmPool`; nothing on PGlite). */
  warm: () => Promise<void>;
  close: () => Promise<void>;
};
