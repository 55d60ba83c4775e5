import postgres from "postgres";
import type { DatabaseConfig } from "./config";

// The PostgreSQL pools' plumbing (db/client.ts opens them): counting their work for the metrics, preparing
// every statement, the options every pool shares, and the boot check for a transaction-mode pooler.

/** Work holding or waiting for one of the pool's connections: statements outside a transaction, and transactions. */
export const poolWork = { inFlight: 0, max: 0 };

/** The pool's connections in use and the work waiting for one, for the metrics (null on PGlite: no pool). */
export function poolUsage(): { inUse: number; waiting: number } | null {
  if (poolWork.max === 0) return null;
  return {
    inUse: Math.min(poolWork.inFlight, poolWork.max),
    waiting: Math.max(0, poolWork.inFlight - poolWork.max),
  };
}

function releasePoolWork(): void {
  poolWork.inFlight -= 1;
}

export function counted<T extends PromiseLike<unknown>>(work: T): T {
  poolWork.inFlight += 1;
  work.then(releasePoolWork, releasePoolWork);
  return work;
}

/**
 * The client drizzle gets: counts the pool's work for the metrics and, when `prepare` is on, prepares every
 * statement. postgres.js prepares its tagged queries but not `unsafe()` ones, and `unsafe()` is how drizzle
 * sends every statement: without this PostgreSQL parses and plans each statement on every call, which was
 * most of the database's work per API request. Statements are cached per connection by their text; this
 * app's queries are a fixed set of shapes with bound parameters, so the cache stays small.
 */
export function poolClient(client: postgres.Sql, prepare: boolean, scoped = false): postgres.Sql {
  type Callback = (sql: postgres.Sql) => unknown;
  // begin and savepoint hand their callback a new client, with its own statements (not counted again).
  const wrapScoped =
    (method: (...args: unknown[]) => Promise<unknown>) =>
    (...args: unknown[]) => {
      const callback = args.at(-1) as Callback;
      const work = method(...args.slice(0, -1), (inner: postgres.Sql) =>
        callback(poolClient(inner, prepare, true)),
      );
      return scoped ? work : counted(work);
    };
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (
          query: string,
          parameters?: postgres.ParameterOrJSON<never>[],
          options?: postgres.UnsafeQueryOptions,
        ) => {
          const statement = target.unsafe(query, parameters, { ...options, prepare });
          // The query runs a tick after its first `then`, so drizzle's `.values()` right after still applies.
          return scoped ? statement : counted(statement);
        };
      }
      if (property === "begin" || property === "savepoint") {
        const method = Reflect.get(target, property) as (...args: unknown[]) => Promise<unknown>;
        return wrapScoped(method.bind(target));
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * Whether session state survives between a connection's statements. Through a pooler in transaction mode it
 * does not: a setting made by one statement is gone in the next when another client holds the server
 * connection that made it (PgBouncer hands out the most recently used one first). Prepared statements would
 * then fail at random with "prepared statement … does not exist", so the boot refuses with a clear error.
 */
export async function sessionSurvivesStatements(url: string): Promise<boolean> {
  const holder = postgres(url, { max: 1, prepare: false, onnotice: () => {} });
  const probe = postgres(url, { max: 1, prepare: false, onnotice: () => {} });
  try {
    await probe`select set_config('payments.session_probe', 'kept', false)`;
    return await holder.begin(async (tx) => {
      await tx`select 1`;
      // A pool of one server connection would make the probe wait for the holder: that is a pooler too.
      const answer = probe<{ value: string | null }[]>`
        select current_setting('payments.session_probe', true) as value`.then(
        ([row]) => row?.value === "kept",
      );
      // Cleared once answered: a pending timer would keep a short-lived process (the CLI) alive for 2 s.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 2000);
      });
      return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
    });
  } finally {
    await Promise.all([holder.end({ timeout: 1 }), probe.end({ timeout: 1 })]);
  }
}

export class PoolerMisconfiguredError extends Error {}

/**
 * Opens every connection of a fresh pool, and on Citus each one's session on every worker (a read of a
 * merchant on each, `merchantPerWorker`), before the process takes requests. A new session on Citus costs
 * about 100-150 ms before its first call is done (docs/scaling.md, "Per node"): a burst as a server's first
 * work opened all of them at once, and most of its requests passed the deadline.
 */
export async function warmPool(pool: postgres.Sql, size: number, merchants: string[]): Promise<void> {
  const warm = async (connection: postgres.ReservedSql) => {
    await connection`select 1`;
    if (merchants.length === 0) return;
    // A worker that is down must not hold every connection for Citus's 30 s to connect: the process serves
    // the other worker's merchants meanwhile, as it would have without this.
    await connection`select set_config('citus.node_connection_timeout', '2000', false)`;
    try {
      for (const merchant of merchants)
        await connection`select 1 from payments where merchant_id = ${merchant}::bigint limit 1`;
    } finally {
      await connection`reset citus.node_connection_timeout`;
    }
  };
  // Reserved all at once, each is a connection of its own. Every one reserved is released once all are done,
  // also when another failed: a reservation never released is a connection the pool has lost for good.
  const reservations = await Promise.allSettled(Array.from({ length: size }, () => pool.reserve()));
  const reserved = reservations.flatMap((each) => (each.status === "fulfilled" ? [each.value] : []));
  const warmed = await Promise.allSettled(reserved.map(warm));
  for (const connection of reserved) connection.release();
  const failed = [...reservations, ...warmed].find((each) => each.status === "rejected");
  if (failed) throw failed.reason;
}

/** postgres.js options for every pool of this database: its primary's and its replicas'. */
export function poolOptions(config: DatabaseConfig) {
  const prepared = config.DATABASE_PREPARED_STATEMENTS;
  // Sent as startup parameters on a direct connection. PgBouncer refuses unknown startup parameters; behind
  // it, set its query_timeout and idle_transaction_timeout (or ALTER DATABASE … SET) instead.
  const timeouts = prepared
    ? {
        statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
        idle_in_transaction_session_timeout: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      }
    : {};
  return {
    prepare: prepared,
    connection: timeouts,
    // During an outage a request fails within about two seconds (a 503) instead of waiting 30 s to connect;
    // idle connections are closed after a minute, so one the server dropped is not kept around for long.
    connect_timeout: 2,
    // A connection refused is tried again after 0.1 s, not postgres.js's backoff that grows to 20 s: under load
    // the queued requests waited it out (a Citus coordinator killed, 9 to 16 s each) instead of failing at once.
    backoff: () => 0.1,
    idle_timeout: 60,
    onnotice: () => {},
  };
}
