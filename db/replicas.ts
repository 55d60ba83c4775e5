import "server-only";
import { sql } from "drizzle-orm";
import { getDb, onDatabaseClose, openReplicaPool, selectRows, type Database } from "./client";
import { readDatabaseConfig } from "./config";
import { databaseDisplayName } from "./url";

/**
 * Read replicas (DATABASE_REPLICA_URLS): lag-tolerant reads (lists, exports, the Overview, the events and logs
 * APIs) go to a replica; everything that decides stays on the primary.
 *
 * Read-your-writes per merchant, by WAL position: after a merchant's write commits, `recordMerchantWrite`
 * stores the primary's WAL position in `merchant_write_positions` (an UNLOGGED table on the primary: shared by
 * every process, no WAL of its own). A read for that merchant goes to a replica only once the replica has
 * replayed past that position; until then, to the primary.
 *
 * Each process watches its replicas every 200 ms: the primary's WAL position, and how far each replica has
 * replayed. A replica's lag is how long ago the primary first wrote WAL the replica has not replayed (0 when
 * it has replayed everything, however idle). A replica that does not answer, or lags more than
 * DATABASE_REPLICA_MAX_LAG_MS, is skipped; a read that fails on a replica runs again on the primary, so a
 * replica going down fails no request.
 */

const POLL_MS = 200;
const PROBE_TIMEOUT_MS = 1000;

export type ReplicaStatus = {
  /** The URL without credentials, for metrics and logs. */
  name: string;
  up: boolean;
  /** How far it has replayed; null until known. */
  replayLsn: bigint | null;
  lagMs: number;
  reads: number;
};

type Replica = ReplicaStatus & { db: Database; end: () => Promise<void> };

/** "16/B374D848" → a number that compares. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

class ReplicaSet {
  readonly replicas: Replica[];
  primaryReads = 0;
  /** The primary's WAL position over the last moments, oldest first: what a replica's lag is measured on. */
  private history: Array<{ at: number; lsn: bigint }> = [];
  private timer: NodeJS.Timeout | undefined;
  private next = 0;

  constructor(
    urls: string[],
    private readonly maxLagMs: number,
  ) {
    this.replicas = urls.map((url) => ({
      name: databaseDisplayName(url),
      up: false,
      replayLsn: null,
      lagMs: Number.POSITIVE_INFINITY,
      reads: 0,
      ...openReplicaPool(url),
    }));
    const tick = () => {
      void this.poll().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, POLL_MS).unref();
      });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async poll(): Promise<void> {
    const now = Date.now();
    try {
      const [row] = await withTimeout(
        selectRows<{ lsn: string }>(getDb(), sql`select pg_current_wal_lsn()::text as lsn`),
        PROBE_TIMEOUT_MS,
      );
      this.history.push({ at: now, lsn: parseLsn(row!.lsn) });
    } catch {
      // The primary is down: requests fail on their own; keep the replicas' last known state.
    }
    const keepFrom = now - this.maxLagMs - 10_000;
    while (this.history.length > 1 && this.history[0]!.at < keepFrom) this.history.shift();
    await Promise.all(this.replicas.map((replica) => this.probe(replica, now)));
  }

  private async probe(replica: Replica, now: number): Promise<void> {
    try {
      const [row] = await withTimeout(
        selectRows<{ lsn: string | null; standby: boolean }>(
          replica.db,
          sql`select pg_last_wal_replay_lsn()::text as lsn, pg_is_in_recovery() as standby`,
        ),
        PROBE_TIMEOUT_MS,
      );
      // Read only while in recovery: a node that was promoted (a failover) is the primary now, and is read
      // as that, through DATABASE_URL; should it be demoted again, it is a replica again.
      if (!row?.standby || !row.lsn) throw new Error("Not a standby (not in recovery)");
      replica.replayLsn = parseLsn(row.lsn);
      replica.up = true;
      // The first moment the primary was seen past what the replica has replayed; none: caught up.
      const behind = this.history.find((sample) => sample.lsn > replica.replayLsn!);
      replica.lagMs = behind ? now - behind.at : 0;
    } catch {
      replica.up = false;
      replica.lagMs = Number.POSITIVE_INFINITY;
    }
  }

  /** Replicas that may serve reads now: answering, and not too far behind. */
  usable(): Replica[] {
    return this.replicas.filter((replica) => replica.up && replica.lagMs <= this.maxLagMs);
  }

  /** One of `candidates` that has replayed `writtenLsn`, taken in turn; undefined when none has. */
  pick(candidates: Replica[], writtenLsn: bigint | null): Replica | undefined {
    const ready = candidates.filter(
      (replica) => writtenLsn === null || (replica.replayLsn !== null && replica.replayLsn >= writtenLsn),
    );
    if (ready.length === 0) return undefined;
    this.next = (this.next + 1) % ready.length;
    return ready[this.next];
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all(this.replicas.map((replica) => replica.end()));
  }
}

const globalForReplicas = globalThis as unknown as { paymentsReplicaSet?: ReplicaSet | null };

/** The process's replicas, opened on first use; null when none are configured (then nothing changes). */
function replicaSet(): ReplicaSet | null {
  if (globalForReplicas.paymentsReplicaSet === undefined) {
    const config = readDatabaseConfig();
    const urls = config.DATABASE_URL ? config.DATABASE_REPLICA_URLS : [];
    globalForReplicas.paymentsReplicaSet =
      urls.length > 0 ? new ReplicaSet(urls, config.DATABASE_REPLICA_MAX_LAG_MS) : null;
    const set = globalForReplicas.paymentsReplicaSet;
    if (set)
      onDatabaseClose(async () => {
        globalForReplicas.paymentsReplicaSet = undefined;
        await set.close();
      });
  }
  return globalForReplicas.paymentsReplicaSet;
}

/** Where the merchant's last write left the primary's WAL; null when it has written nothing recorded. */
async function merchantWritePosition(merchantId: number): Promise<bigint | null> {
  const [row] = await selectRows<{ lsn: string }>(
    getDb(),
    sql`select lsn::text as lsn from merchant_write_positions where merchant_id = ${merchantId}`,
  );
  return row ? parseLsn(row.lsn) : null;
}

/**
 * After a merchant's write has committed: its reads stay on the primary until a replica has replayed this far.
 * Nothing at all without replicas.
 */
export async function recordMerchantWrite(merchantId: number): Promise<void> {
  if (!replicaSet()) return;
  await selectRows(
    getDb(),
    sql`insert into merchant_write_positions as positions (merchant_id, lsn)
        values (${merchantId}, pg_current_wal_lsn())
        on conflict (merchant_id) do update set lsn = greatest(positions.lsn, excluded.lsn)`,
  );
}

/** A replica that has replayed the merchant's writes (counted), or undefined: the primary (counted). */
async function chooseReplica(set: ReplicaSet | null, merchantId: number): Promise<Replica | undefined> {
  if (!set) return undefined;
  const usable = set.usable();
  const replica = usable.length > 0 ? set.pick(usable, await merchantWritePosition(merchantId)) : undefined;
  if (replica) replica.reads += 1;
  else set.primaryReads += 1;
  return replica;
}

/** Errors that are the read's answer (not found, invalid input), the same on any copy of the data. */
const isAnswer = (error: unknown) =>
  error instanceof Error && (error.name === "DomainError" || error.name === "HttpError");

/**
 * Runs a lag-tolerant read of one merchant's data on a replica that has replayed the merchant's writes, else
 * on the primary. A read that fails on the replica runs again on the primary, and the replica is skipped
 * until its next probe answers.
 */
export function readFor<T>(merchantId: number, read: (db: Database) => Promise<T>): Promise<T> {
  const set = replicaSet();
  // No replicas: the primary at once, without a turn of the event loop's queue per read.
  return set ? readOnReplicaSet(set, merchantId, read) : read(getDb());
}

async function readOnReplicaSet<T>(
  set: ReplicaSet,
  merchantId: number,
  read: (db: Database) => Promise<T>,
): Promise<T> {
  const replica = await chooseReplica(set, merchantId);
  if (!replica) return read(getDb());
  try {
    return await read(replica.db);
  } catch (error) {
    if (isAnswer(error)) throw error;
    replica.up = false;
    replica.reads -= 1;
    set.primaryReads += 1;
    return read(getDb());
  }
}

/** For a read that cannot be run twice (a streamed export): a replica chosen as readFor would, else the primary. */
export async function readDbFor(merchantId: number): Promise<Database> {
  return (await chooseReplica(replicaSet(), merchantId))?.db ?? getDb();
}

/** For the metrics: each replica's state and reads, and the reads the primary took instead. */
export function replicaStatus(): { replicas: ReplicaStatus[]; primaryReads: number } | null {
  const set = replicaSet();
  if (!set) return null;
  return {
    primaryReads: set.primaryReads,
    replicas: set.replicas.map(({ name, up, replayLsn, lagMs, reads }) => ({
      name,
      up,
      replayLsn,
      lagMs,
      reads,
    })),
  };
}
