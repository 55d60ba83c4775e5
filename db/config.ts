import path from "node:path";
import { z } from "zod";

/**
 * The database's own settings, read from the environment. The platform's configuration check
 * (lib/platform/env.ts) extends this schema, so a bad value is reported at boot with everything else.
 */
export const databaseConfigSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * `false` behind a pooler in transaction mode (PgBouncer): every statement is sent unprepared, and the worker
   * polls instead of LISTENing (a pooled connection carries no session). Default `true`: direct connections
   * prepare each statement once per connection.
   */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((value) => value === "true" || value === "1"),
  /**
   * Read replicas (comma-separated postgres:// URLs, PostgreSQL only): lag-tolerant reads go to them
   * (db/replicas.ts). Empty: every statement goes to DATABASE_URL.
   */
  DATABASE_REPLICA_URLS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, "must be postgres:// or postgresql:// URLs"))),
  /** A replica further behind than this is skipped until it catches up. */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).default(5000),
  PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
  /** No statement runs longer, so a stuck query cannot hold a pool connection forever (0 turns it off). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** A transaction left idle this long is ended by PostgreSQL, releasing its locks (0 turns it off). */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * Tests only: a directory where each process writes every distinct statement text it sends (and who sent
   * it), for the tenant-scoping check. Unset, nothing is recorded and no statement does extra work.
   */
  DATABASE_STATEMENT_CAPTURE: z.string().min(1).optional(),
});

export type DatabaseConfig = z.infer<typeof databaseConfigSchema>;

/** Parsed on first use (never at import, so `next build` reads nothing); lib/platform/env.ts reports errors first. */
export function readDatabaseConfig(): DatabaseConfig {
  return databaseConfigSchema.parse(process.env);
}

/** The committed migrations (drizzle-kit's output), applied at every start. */
export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/**
 * The advisory lock a process migrating PostgreSQL holds (db/client.ts). Any fixed number: it only has to be
 * the same in every process that migrates.
 */
export const MIGRATION_LOCK_ID = 72_201_517;

/** The SQL functions' current text (db/function-files.ts), applied after the migrations when it changed. */
export const functionsFolder = path.join(process.cwd(), "db", "functions");
