import "server-only";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { runBackfills } from "./backfills";
import { distributeForCitus, joinCitusWorker, merchantPerWorker, onCitusWorker } from "./citus";
import { MIGRATION_LOCK_ID, migrationsFolder, readDatabaseConfig, type DatabaseConfig } from "./config";
import type { Connection, Database, Executor } from "./database-types";
import { applyFunctionFiles, type RunSql } from "./function-files";
import {
  counted,
  poolClient,
  PoolerMisconfiguredError,
  poolOptions,
  poolWork,
  sessionSurvivesStatements,
  warmPool,
} from "./pool";
import { finishRollupKeys } from "./rollup-keys";
import * as schema from "./schema";
import { dialect, type Statement } from "./statement";
import { captureFor, capturingLogger, type StatementRecorder } from "./statement-capture";

/**
 * The one module that knows which driver runs: postgres.js when DATABASE_URL is set, PGlite in-process
 * otherwise. Everything else sees `Database` (db/database-types.ts, where the drivers' modules read it too)
 * and calls the helpers below.
 */
export type { Database, Executor, Transaction } from "./database-types";

export { poolUsage, PoolerMisconfiguredError } from "./pool";

/**
 * PGlite's module (a WebAssembly PostgreSQL) takes over a second to load: only a process without
 * DATABASE_URL loads it, so an API process on PostgreSQL, replaced after a crash, boots without it.
 */
const embedded = process.env.DATABASE_URL ? undefined : await import("./embedded-connection");

/**
 * A read replica's pool (db/replicas.ts): prepared like the primary's, and read through `selectRows`'s direct
 * path too; its work is not counted in the primary pool's metrics.
 */
export function openReplicaPool(url: string): { db: Database; end: () => Promise<void> } {
  const config = readDatabaseConfig();
  const options = poolOptions(config);
  const record = captureFor(config);
  const pool = postgres(url, { ...options, max: config.DATABASE_POOL_MAX });
  const db = drizzlePostgres({
    client: poolClient(pool, options.prepare, true),
    schema,
    logger: record && capturingLogger(record),
  });
  directClients.set(
    db,
    recording(record, (text, parameters) => pool.unsafe(text, parameters, { prepare: options.prepare })),
  );
  return { db, end: () => pool.end({ timeout: 5 }) };
}

function connectPostgres(config: DatabaseConfig & { DATABASE_URL: string }): Connection {
  const url = config.DATABASE_URL;
  const record = captureFor(config);
  const logger = record && capturingLogger(record);
  const options = poolOptions(config);
  const prepared = options.prepare;
  const pool = postgres(url, { ...options, max: config.DATABASE_POOL_MAX });
  poolWork.max = config.DATABASE_POOL_MAX;
  const client = poolClient(pool, prepared);
  // Opens its connection on first use: only processes that write in the background have one.
  const backgroundPool = postgres(url, { ...options, max: 1 });
  const background = poolClient(backgroundPool, prepared, true);
  const db = drizzlePostgres({ client, schema, logger });
  const backgroundDb = drizzlePostgres({ client: background, schema, logger });
  // After drizzle() has set its type parsers on the clients, which these direct calls then share.
  directClients.set(
    db,
    recording(record, (text, parameters) => counted(pool.unsafe(text, parameters, { prepare: prepared }))),
  );
  // execute(): sent now, as drizzle's execute() did, even if no one waits for the rows.
  directClients.set(
    backgroundDb,
    recording(record, (text, parameters) =>
      backgroundPool.unsafe(text, parameters, { prepare: prepared }).execute(),
    ),
  );
  return {
    db,
    backgroundDb,
    async migrate() {
      if (prepared && !(await sessionSurvivesStatements(url)))
        throw new PoolerMisconfiguredError(
          "DATABASE_URL goes through a connection pooler in transaction mode (PgBouncer?): prepared statements " +
            "would fail at random. Set DATABASE_PREPARED_STATEMENTS=false, or connect directly or in session mode.",
        );
      // Several servers may start at once: one migrates while holding a transaction-scoped lock on another
      // connection (a session-level lock would be lost, or never released, behind a transaction pooler). The
      // others try for it every 250 ms rather than wait in a statement: a waiting statement holds a snapshot,
      // and the rollup key's CREATE INDEX CONCURRENTLY (db/rollup-keys.ts) waits for every older snapshot to
      // end, which would never happen. For the same reason the simple protocol: an extended query's portal
      // keeps its snapshot (an xmin) open until the transaction ends.
      const lock = postgres(url, { max: 1, prepare: false, onnotice: () => {} });
      const single = postgres(url, { max: 1, prepare: false, onnotice: () => {} });
      try {
        if (await joinCitusWorker(single)) return [];
        for (;;) {
          const applied = await lock.begin(async (tx) => {
            const [held] = await tx
              .unsafe<Array<{ held: boolean }>>(
                `select pg_try_advisory_xact_lock(${MIGRATION_LOCK_ID}) as held`,
              )
              .simple();
            if (!held?.held) return undefined;
            await migratePostgres(drizzlePostgres({ client: single }), { migrationsFolder });
            // Under the lock: a second process finds the checksums this one recorded, and applies nothing.
            const files = await applyFunctionFiles(
              <T>(work: (run: RunSql) => Promise<T>) =>
                single.begin((fileTx) => work((text) => fileTx.unsafe(text).simple())) as Promise<T>,
            );
            await finishRollupKeys((statement) => single.unsafe(statement), { concurrently: true });
            // After the function files: the functions they changed are distributed again with their new text.
            await distributeForCitus(single);
            return files;
          });
          if (applied) return applied;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        await Promise.all([lock.end(), single.end()]);
      }
    },
    async listen(channel, onNotify) {
      // Behind a transaction pooler LISTEN has no session to live in; the worker's polling does the job.
      if (prepared) await client.listen(channel, () => onNotify());
    },
    warm: async () => warmPool(pool, config.DATABASE_POOL_MAX, await merchantPerWorker(pool)),
    close: () => Promise.all([client.end({ timeout: 5 }), background.end({ timeout: 5 })]).then(() => {}),
  };
}

function embeddedConnection(config: DatabaseConfig): Connection {
  if (!embedded) throw new Error("DATABASE_URL was set when the database module loaded, and is unset now");
  return embedded.connectPglite(config);
}

// Cached on globalThis: the server script and Next.js's separately bundled pages and actions each load this
// module, and hot reload re-evaluates it; all must share one pool (and PGlite must be opened once per process).
const globalForDb = globalThis as unknown as {
  paymentsDbConnection?: Connection;
  paymentsDbCloseHooks?: Array<() => Promise<void>>;
};

function connection(): Connection {
  if (!globalForDb.paymentsDbConnection) {
    const config = readDatabaseConfig();
    globalForDb.paymentsDbConnection = config.DATABASE_URL
      ? connectPostgres({ ...config, DATABASE_URL: config.DATABASE_URL })
      : embeddedConnection(config);
  }
  return globalForDb.paymentsDbConnection;
}

/** Opens the database on first use, never at import, so `next build` never touches it. */
export function getDb(): Database {
  return connection().db;
}

/**
 * A connection of its own, for batches written off the request path (the API request log). On the shared
 * pool a batch held a connection that requests had their next statements queued on, while PostgreSQL
 * inserted hundreds of rows and flushed the commit; requests then waited for log writes after all.
 */
export function getBackgroundDb(): Database {
  return connection().backgroundDb;
}

/**
 * The schema's migrations and the function files that changed (db/function-files.ts), then the data backfills
 * they left (db/backfills.ts), before anything is served. Returns the function files applied.
 */
export async function migrateDatabase(): Promise<string[]> {
  const applied = await connection().migrate();
  // A Citus worker's processes leave them to the coordinator's, where their bookkeeping is.
  if (!onCitusWorker()) await runBackfills(connection().db);
  return applied;
}

/** See `warmPool`: after migrating, before the first request. */
export function warmDatabasePool(): Promise<void> {
  return connection().warm();
}

export function listenForNotifications(channel: string, onNotify: () => void): Promise<void> {
  return connection().listen(channel, onNotify);
}

/** Run when the database closes, before its pool: the read replicas' pools and monitor. */
export function onDatabaseClose(hook: () => Promise<void>): void {
  (globalForDb.paymentsDbCloseHooks ??= []).push(hook);
}

export async function closeDatabase(): Promise<void> {
  await Promise.all((globalForDb.paymentsDbCloseHooks ?? []).splice(0).map((hook) => hook()));
  const current = globalForDb.paymentsDbConnection;
  globalForDb.paymentsDbConnection = undefined;
  await current?.close();
}

type DirectClient = (text: string, parameters: never[]) => Promise<unknown[]>;

/** The direct client itself when nothing is recorded, so the hot path is unchanged. */
function recording(record: StatementRecorder | undefined, direct: DirectClient): DirectClient {
  if (!record) return direct;
  return (text, parameters) => {
    record(text);
    return direct(text, parameters);
  };
}

/**
 * postgres.js clients of the pool's databases, for `selectRows` to send a statement straight to: drizzle's
 * session around `execute` (its tracer span, query cache and result mapping, a Proxy and three promises)
 * cost about a tenth of an API list request's CPU and does nothing for raw SQL.
 */
const directClients = new WeakMap<object, DirectClient>();

/** Runs raw SQL and returns its rows, whichever driver answered. */
export function selectRows<Row>(executor: Executor, query: SQL): Promise<Row[]> {
  const direct = directClients.get(executor);
  if (direct) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return direct(text, params as never[]) as Promise<Row[]>;
  }
  return executor
    .execute(query)
    .then(
      (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Row[],
    );
}

/** Runs a compiled statement with its values and returns its rows (see Statement). */
export function selectStatement<Values extends Record<string, unknown>, Row>(
  executor: Executor,
  statement: Statement<Values, Row>,
  values: Values,
): Promise<Row[]> {
  const direct = directClients.get(executor);
  if (direct) return direct(statement.text, statement.bind(values) as never[]) as Promise<Row[]>;
  return selectRows<Row>(executor, statement.query(values));
}
