// On a Citus coordinator (the `citus` extension in this database), `npm run db:migrate` and every server's
// start also shard the schema by merchant, idempotently (DESIGN.md, "Citus: sharded by merchant"). Anywhere
// else this is one catalog read. The choices per table are explained in docs/scaling.md.
import type { Sql } from "postgres";

/**
 * Global tables, copied to every node (reference tables): what is looked up without a merchant (a session, a
 * token by its hash, an e-mail at sign-in, an invitation) and changes rarely.
 */
export const REFERENCE_TABLES = [
  "merchants",
  "users",
  "user_sessions",
  "invitations",
  "api_tokens",
  "login_attempts",
  "signup_attempts",
];

/** Sharded by another key than the merchant, each on its own: every statement names that key. */
export const SEPARATELY_DISTRIBUTED: Record<string, string> = {
  // A token's open event streams.
  event_stream_leases: "token_id",
};

const globalForCitus = globalThis as unknown as {
  paymentsOnCitus?: boolean;
  paymentsOnCitusWorker?: boolean;
};

/**
 * Whether this process's database is a Citus coordinator, as found when it migrated at start: statements that
 * differ there (a NOTIFY runs where the statement does, a worker's shard on Citus) ask this, not the database.
 */
export function onCitus(): boolean {
  return globalForCitus.paymentsOnCitus === true;
}

/**
 * Whether this process was given a Citus worker ("Any node", docs/scaling.md): it serves merchants' requests
 * there, and leaves the schema and its data backfills to the coordinator's processes.
 */
export function onCitusWorker(): boolean {
  return globalForCitus.paymentsOnCitusWorker === true;
}

/**
 * Whether the database is a Citus worker with the cluster's metadata (Citus's default), the schema already
 * distributed from the coordinator: a process given a worker does no migration. A worker whose coordinator
 * has not migrated yet is refused with a clear error, rather than served half a schema.
 */
export async function joinCitusWorker(client: Sql): Promise<boolean> {
  const [citus] = await client`select 1 from pg_extension where extname = 'citus'`;
  if (!citus) return false;
  const [node] = await client<Array<{ coordinator: boolean; ready: boolean }>>`
    select citus_is_coordinator() as coordinator,
           exists (select 1 from pg_dist_partition where logicalrelid = to_regclass('payments')) as ready`;
  if (node!.coordinator) return false;
  if (!node!.ready)
    throw new Error(
      "DATABASE_URL is a Citus worker whose schema is not distributed yet: start a process on the coordinator first (it migrates).",
    );
  globalForCitus.paymentsOnCitus = true;
  globalForCitus.paymentsOnCitusWorker = true;
  return true;
}

/**
 * A merchant id whose shards are on each worker (one per worker group), found from Citus's metadata on any
 * node: a read of each opens a session's connection to every worker, and that worker's session
 * (db/pool.ts, `warmPool`). Empty off Citus.
 */
export async function merchantPerWorker(client: Sql): Promise<string[]> {
  if (!onCitus()) return [];
  const rows = await client<Array<{ merchant: string }>>`
    select distinct on (placement.groupid) candidate.id::text as merchant
    from generate_series(1, 1024) as candidate(id)
    join pg_dist_placement placement
      on placement.shardid = get_shard_id_for_distribution_column('payments', candidate.id)
    order by placement.groupid, candidate.id`;
  return rows.map((row) => row.merchant);
}

/**
 * Kept on the coordinator only, never joined with merchants' rows: the bookkeeping of migrations. (The function
 * files' checksums, drizzle.function_files, are outside `public`, which alone is distributed.)
 */
export const COORDINATOR_TABLES = ["backfills"];

/**
 * On the coordinator, but in Citus's metadata (a "Citus local table"), so processes on the workers reach it
 * too: the rate limits' buckets, counted by every request. A process on the coordinator counts there without a
 * hop (a call delegated to a worker cost about 300 µs of CPU more a request, bench:any-node); one on a worker
 * sends the count to the coordinator, a few small statements, and the rest of its request stays on the worker.
 */
export const COORDINATOR_SHARED_TABLES = ["rate_limit_buckets"];

/**
 * Makes the reference tables and distributes every other table of the schema by merchant_id (or by its own
 * key, SEPARATELY_DISTRIBUTED), in one transaction. Every table sharded by merchant is in Citus's default
 * co-location group (a bigint key, the same shard count): a merchant's rows of every table live on one worker,
 * so its joins and foreign keys stay there. Foreign keys are set aside while the tables change hands and made
 * again after (Citus would otherwise turn a table that references a reference table into a "Citus local
 * table", which cannot then be distributed with an identity column). Tables already distributed are left as
 * they are: a second run does nothing. Returns the tables it distributed (none off Citus).
 */
export async function distributeForCitus(client: Sql): Promise<string[]> {
  const [citus] = await client`select 1 from pg_extension where extname = 'citus'`;
  globalForCitus.paymentsOnCitus = Boolean(citus);
  if (!citus) return [];
  const distributed = await distributeTables(client);
  await delegateWriteFunctions(client);
  await planEveryCall(client);
  return distributed;
}

/**
 * Every session on every node plans each statement for its call (`plan_cache_mode = force_custom_plan`, set on
 * the database, which Citus passes to the workers). Citus 13.2.1 and 13.2.2 lose the local plan they cache for
 * a statement that a session repeats on a shard of its own node (a statement of a delegated function, a
 * prepared statement on a worker), plan it again each call, and keep every copy (citusdata/citus #8783, fixed
 * by #8824 in no release yet): a worker's session grew by about 190 KB a payment's creation and 55 KB a list
 * page, without bound. A custom plan is never cached that way. Measured in docs/scaling.md, "Per node".
 */
async function planEveryCall(client: Sql): Promise<void> {
  const [{ name }] = await client<[{ name: string }]>`select current_database() as name`;
  await client`alter database ${client(name)} set plan_cache_mode = force_custom_plan`;
}

/**
 * The write functions of db/functions, each by its merchant argument (`p_merchant_id`): a call names its
 * merchant, so the coordinator hands the whole call to the worker with that merchant's shards (colocated with
 * `payments`), which runs every statement of it locally. Idempotent (Citus updates the function's entry), and
 * run after the function files on every migration, so a function a file changed is distributed again.
 */
export const DELEGATED_FUNCTIONS = [
  "create_payment(bigint,text,text,text,numeric,text,text,text,integer,text,bigint,text,text,text,boolean,text,text,timestamptz,text,text,text)",
  "settle_payment(bigint,bigint,text,text,text,text,json,bigint,boolean,numeric,boolean)",
  "create_refund(bigint,bigint,text,numeric,text,text,integer,boolean,text,text,timestamptz)",
  "record_event(bigint,text,text,bigint,json)",
  "claim_idempotency_key(bigint,text,text,timestamptz,text)",
  "enter_lines(bigint,bigint,text,text,text[],numeric[])",
  "post_move(bigint,text,bigint,text,numeric,numeric,bigint,text[],numeric[])",
  "count_balance_transaction(bigint,text,text,timestamptz,timestamptz,numeric,numeric,numeric)",
  "settle_refund(bigint,bigint,text,text,text,boolean,boolean)",
  "create_payout(bigint,text,text,numeric,numeric,text,boolean,integer,boolean,text,text,timestamptz)",
  "move_payout(bigint,bigint,text,text[],text,text,integer,boolean)",
  "pay_checkout(bigint,text,text,text,text,text,json,boolean,bigint,boolean,integer,text,boolean,integer)",
  "open_dispute(bigint,bigint,text,text,text,boolean,integer,text[],boolean)",
  "decide_dispute(bigint,bigint,text,text,text,text[],boolean)",
];

/**
 * What they call, on every node too. Created while the tables were still the coordinator's (a migration, or
 * db/functions on a new database), a function over a table's row type stayed there: distributing it copies it
 * to the workers.
 */
export const PROPAGATED_FUNCTIONS = [
  "merchant_now(bigint)",
  "payment_json(payments,text)",
  "minor_units(text)",
  "payment_fee(numeric,text,numeric,numeric)",
  "refund_json(refunds)",
  "refund_state(numeric,numeric)",
  "payout_json(payouts)",
  "dispute_json(disputes,text[])",
  "dispute_fee(text)",
];

async function delegateWriteFunctions(client: Sql): Promise<void> {
  for (const signature of PROPAGATED_FUNCTIONS)
    await client`select create_distributed_function(${signature})`;
  for (const signature of DELEGATED_FUNCTIONS)
    await client`select create_distributed_function(${signature}, 'p_merchant_id', colocate_with := 'payments')`;
}

async function distributeTables(client: Sql): Promise<string[]> {
  const tables = await client<Array<{ name: string; has_merchant: boolean }>>`
    select c.relname as name,
           exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'merchant_id'
                     and not a.attisdropped) as has_merchant
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      and c.oid not in (select logicalrelid from pg_dist_partition)
      and c.relname <> all(${COORDINATOR_TABLES})
    order by c.relname`;
  if (tables.length === 0) return [];
  const names = tables.map((table) => table.name);
  await client.begin(async (tx) => {
    // One connection per worker for the whole transaction: reference and distributed tables change in it.
    await tx`set local citus.multi_shard_modify_mode to 'sequential'`;
    const foreignKeys = await tx<Array<{ on_table: string; name: string; definition: string }>>`
      select conrelid::regclass::text as on_table, conname as name, pg_get_constraintdef(oid) as definition
      from pg_constraint
      where contype = 'f' and conparentid = 0
        and (conrelid::regclass::text = any(${names}) or confrelid::regclass::text = any(${names}))`;
    for (const key of foreignKeys) await tx.unsafe(`alter table ${key.on_table} drop constraint ${key.name}`);
    for (const table of tables) {
      if (COORDINATOR_SHARED_TABLES.includes(table.name)) {
        await tx`select citus_add_local_table_to_metadata(${table.name})`;
        continue;
      }
      if (REFERENCE_TABLES.includes(table.name)) {
        await tx`select create_reference_table(${table.name})`;
        continue;
      }
      const key = SEPARATELY_DISTRIBUTED[table.name];
      if (key) {
        await tx`select create_distributed_table(${table.name}, ${key}, colocate_with => 'none')`;
        continue;
      }
      if (!table.has_merchant) throw new Error(`${table.name} has no merchant_id to be sharded by`);
      await tx`select create_distributed_table(${table.name}, 'merchant_id', colocate_with => 'default')`;
    }
    for (const key of foreignKeys)
      await tx.unsafe(`alter table ${key.on_table} add constraint ${key.name} ${key.definition}`);
  });
  return names;
}
