import "server-only";
import { sql } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { getDb, selectRows, type Executor, type Transaction } from "@/db/client";
import { isLockNotAvailable, isMissingPartition } from "@/db/errors";
import { getEnv } from "./env";
import { logger } from "./logger";
import { periodicService } from "./periodic-service";

/**
 * Append-only history partitioned by time (migration 0022), so retention drops a whole partition instead of
 * deleting rows one by one (docs/benchmarks-log.md, "Retention by partition"). Partitions are UTC days or
 * weeks, created ahead by the worker, at every boot and, failing both, by a writer that meets a missing one.
 * There is no DEFAULT partition: rows in it would have to be moved out before a partition for their range
 * could be created.
 *
 * - api_request_logs, daily: the biggest table (every API request), kept API_LOG_RETENTION_DAYS. A day is
 *   dropped once all of it is past the retention, so rows outlive it by less than a day; the Logs page reads the
 *   newest first, a time range, and only touches the partitions it needs.
 * - webhook_attempts, weekly: read by delivery (the delivery log, and the cascade from each pruned delivery),
 *   which no time bound narrows, so every partition is one more index probe: a few wide ones are cheaper.
 *   Retention to the day stays the event cascade's (pruning.ts); a week all past it is then dropped whole.
 * - security_events, weekly: a few rows per sensitive action, kept SECURITY_HISTORY_RETENTION_DAYS (at least a
 *   year), read newest first by merchant; a week is dropped once all of it is past the retention.
 */
export const HISTORY_TABLES = {
  api_request_logs: { width: "day", writtenLate: true },
  webhook_attempts: { width: "week", writtenLate: true },
  // Written only at now() (in the action's transaction): its partitions start a week back, not at the horizon.
  security_events: { width: "week", writtenLate: false },
} as const;

export type HistoryTable = keyof typeof HISTORY_TABLES;

/** How many days each table's rows are kept, as configured. */
export const retentionDays = (): Record<HistoryTable, number> => ({
  api_request_logs: getEnv().API_LOG_RETENTION_DAYS,
  webhook_attempts: getEnv().EVENT_RETENTION_DAYS,
  security_events: getEnv().SECURITY_HISTORY_RETENTION_DAYS,
});

const historyTables = Object.keys(HISTORY_TABLES) as HistoryTable[];
const DAY_MS = 86_400_000;
/** How far ahead partitions exist: a worker stopped for up to a week leaves no writer without one. */
const DAYS_AHEAD = 7;
/** The same key create_history_partitions() takes, so a drop never races a creation. */
const PARTITION_LOCK_ID = 72_201_518;
/**
 * Creating or dropping a partition locks its parent exclusively for a moment. Behind a long query that lock
 * would wait, and every insert would queue behind it: better to give up and try again next round.
 */
const LOCK_TIMEOUT = "5s";

/**
 * On Citus a partition is a distributed table of its own, with foreign keys to reference tables: its shards
 * are made over one connection per worker (Citus refuses the parallel way in such a transaction).
 */
async function sequentialOnCitus(tx: Transaction): Promise<void> {
  if (onCitus()) await tx.execute(sql`set local citus.multi_shard_modify_mode to 'sequential'`);
}

/** Creates the partitions of `table` missing from the one holding `from` to the one holding `to`. */
export async function createPartitions(db: Executor, table: HistoryTable, from: Date, to: Date) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`);
    await sequentialOnCitus(tx);
    const [row] = await selectRows<{ created: number }>(
      tx,
      sql`select create_history_partitions(${table}, ${HISTORY_TABLES[table].width},
            ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz) as created`,
    );
    return Number(row?.created ?? 0);
  });
}

/**
 * Makes sure every partition a row may be kept in or written to exists: from the retention's horizon (a week
 * back for a table written only at now()) through DAYS_AHEAD. Run at boot (API-only processes too) and by the worker's partition service; cheap when all exist.
 */
export async function createHistoryPartitions(
  db: Executor,
  now = new Date(),
  keepDays = retentionDays(),
): Promise<Record<HistoryTable, number>> {
  const created = {} as Record<HistoryTable, number>;
  for (const table of historyTables) {
    const back = HISTORY_TABLES[table].writtenLate ? keepDays[table] : DAYS_AHEAD;
    const from = new Date(now.getTime() - back * DAY_MS);
    created[table] = await createPartitions(db, table, from, new Date(now.getTime() + DAYS_AHEAD * DAY_MS));
  }
  if (Object.values(created).some((count) => count > 0))
    logger.info({ created }, "History partitions created");
  return created;
}

/**
 * Drops the partitions of each table that lie wholly before its retention's horizon (a partition's upper
 * bound is read from the catalog, so one made by hand counts too); returns how many went per table.
 */
export async function dropExpiredPartitions(
  db: Executor,
  keepDays = retentionDays(),
): Promise<Record<HistoryTable, number>> {
  const dropped = {} as Record<HistoryTable, number>;
  for (const table of historyTables) {
    const expired = await selectRows<{ name: string }>(
      db,
      sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = ${table}::regclass
            and substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']+)''\\)')::timestamptz
                <= now() - make_interval(days => ${keepDays[table]})
          order by 1`,
    );
    dropped[table] = 0;
    for (const { name } of expired) {
      try {
        if (await dropPartition(db, name)) dropped[table] += 1;
      } catch (error) {
        // Behind a long query: the next round drops it, and the rest of this round's pruning goes on.
        if (!isLockNotAvailable(error)) throw error;
        logger.warn({ partition: name }, "Expired partition not dropped: its table was busy");
      }
    }
  }
  if (Object.values(dropped).some((count) => count > 0))
    logger.info({ dropped }, "History partitions dropped");
  return dropped;
}

/** Drops a partition unless another process did first (then only that one counts it). */
function dropPartition(db: Executor, name: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`);
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_ID})`);
    await sequentialOnCitus(tx);
    const [row] = await selectRows<{ present: boolean }>(
      tx,
      sql`select to_regclass(quote_ident(${name})) is not null as present`,
    );
    if (!row?.present) return false;
    await tx.execute(sql`drop table ${sql.identifier(name)}`);
    return true;
  });
}

/**
 * Runs a write into `table`; if a row found no partition (the worker had not run for a while, or a batch
 * held since a day no longer covered), creates the partitions for the rows' times and runs it once more.
 */
export async function writeCreatingPartitions<T>(
  db: Executor,
  table: HistoryTable,
  times: () => Date[],
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    const stamps = times().map((time) => time.getTime());
    const from = new Date(Math.min(...stamps));
    const to = new Date(Math.max(...stamps));
    logger.warn({ table, from, to }, "A partition was missing: creating it and writing again");
    await createPartitions(db, table, from, to);
    return write();
  }
}

/** The worker's partition service: hourly, so a new day always finds its partition made days before. */
export const startHistoryPartitioner = periodicService(
  "Creating history partitions",
  60 * 60 * 1000,
  async () => {
    await createHistoryPartitions(getDb());
    return false;
  },
);
