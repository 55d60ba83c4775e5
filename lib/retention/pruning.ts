import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, selectRows, type Executor } from "@/db/client";
import { eventHour } from "@/lib/payments/outbox";
import { getEnv } from "@/lib/platform/env";
import { dropExpiredPartitions, type HistoryTable } from "@/lib/platform/history-partitions";
import { EVERY_MERCHANT, forEachDueMerchant, type MerchantScope } from "@/lib/platform/merchant-claims";
import { periodicService } from "@/lib/platform/periodic-service";

/**
 * Tables that would otherwise only grow, and how long a row is worth keeping. Each cut-off is past the point
 * where the row can change an answer: an idempotency key is honoured for 24 hours (the contract), a login
 * success marks a known address for 30 days (failures count for 15 minutes), a sign-up counts for an hour
 * (kept a day for investigation), a rate-limit bucket whose `tat` is an hour old has refilled completely.
 * An invitation stops working when it is accepted, revoked or expired (7 days after it was sent), whichever
 * comes first (`least` skips the nulls); it is kept a week after that, so support can still tell an expired
 * or used link from one that never existed. A dashboard session unused for 7 days has an expired cookie (it
 * is renewed on use); a day's margin covers a last use not yet recorded (once a minute). An inbox keeps what
 * it captured for 7 days, like the request bins QA would otherwise use. `since` and `key` (the primary key,
 * which a batch deletes by: a row's ctid differs between a reference table's copies on Citus) are SQL, spliced
 * as written: constants only. A table with `merchant_id` is pruned a merchant at a time on Citus.
 */
export const RETENTION = [
  { table: "idempotency_keys", since: "created_at", keep: "24 hours", key: "merchant_id, id" },
  { table: "login_attempts", since: "created_at", keep: "30 days", key: "id" },
  { table: "signup_attempts", since: "created_at", keep: "1 day", key: "id" },
  { table: "rate_limit_buckets", since: "(tat at time zone 'UTC')", keep: "1 hour", key: "key" },
  { table: "invitations", since: "least(expires_at, accepted_at, revoked_at)", keep: "7 days", key: "id" },
  { table: "user_sessions", since: "last_used_at", keep: "8 days", key: "id" },
  { table: "webhook_inbox_captures", since: "received_at", keep: "7 days", key: "merchant_id, id" },
] as const;

/** Rows deleted per table, and whole partitions dropped per partitioned history table. */
export type PruneCounts = Record<
  (typeof RETENTION)[number]["table"] | "events" | "event_hourly_counts",
  number
> & {
  partitionsDropped: Record<HistoryTable, number>;
};

/**
 * One batch of events older than the retention (EVENT_RETENTION_DAYS, at least 30), with their deliveries
 * and, through them, their attempts (the delivery log of an event goes with it: the foreign key's cascade
 * works on the partitioned webhook_attempts too), taken off their hours' counts. Only the rows this
 * statement deleted are uncounted, so pruners side by side never count twice.
 */
function oldEventsBatch(merchant: MerchantScope, days: number, batchSize: number) {
  return sql`with doomed as (
               select merchant_id, id from events where ${eventsExpired(days)} ${merchant.and()}
               order by created_at limit ${batchSize}),
             deliveries as (delete from webhook_deliveries
                            where (merchant_id, event_id) in (select merchant_id, id from doomed) ${merchant.and()}),
             deleted as (delete from events where (merchant_id, id) in (select merchant_id, id from doomed) ${merchant.and()}
                          returning merchant_id, type, ${eventHour(sql`created_at`)} as hour),
             uncounted as (
               update event_hourly_counts counts set count = counts.count - gone.count
               from (select merchant_id, type, hour, count(*) as count from deleted group by 1, 2, 3) gone
               where counts.merchant_id = gone.merchant_id and counts.type = gone.type and counts.hour = gone.hour
                 ${merchant.and("counts.merchant_id")})
           select count(*) as deleted from deleted`;
}

const eventsExpired = (days: number) => sql`created_at < now() - make_interval(days => ${days})`;
const hoursEmptied = (days: number) => sql`hour < now() - make_interval(days => ${days}) and count <= 0`;

/** A batch of `table`'s rows where `expired`, deleted by primary key (`key`), within `merchant`. */
function expiredBatch(table: string, key: string, expired: SQL, merchant: MerchantScope, batchSize: number) {
  const columns = sql.raw(key);
  return sql`with deleted as (
               delete from ${sql.identifier(table)}
               where (${columns}) in (
                 select ${columns} from ${sql.identifier(table)} where ${expired} ${merchant.and()}
                 order by ${columns} limit ${batchSize}) ${merchant.and()}
               returning 1)
             select count(*) as deleted from deleted`;
}

/**
 * Drops the partitioned history's expired partitions (the request log and the attempt log: no row deletes),
 * then deletes expired rows in batches (short transactions, short locks) until none is left; returns how many
 * went. Safe to run from several workers at once: a row deleted by one is simply not found by another.
 */
export async function pruneExpiredRows(
  db: Executor,
  batchSize = 1000,
  eventRetentionDays = getEnv().EVENT_RETENTION_DAYS,
): Promise<PruneCounts> {
  const partitionsDropped = await dropExpiredPartitions(db, {
    api_request_logs: getEnv().API_LOG_RETENTION_DAYS,
    webhook_attempts: eventRetentionDays,
    security_events: getEnv().SECURITY_HISTORY_RETENTION_DAYS,
  });
  const counts = { partitionsDropped } as PruneCounts;
  const batches = [
    ...RETENTION.map(({ table, since, keep, key }) => {
      const expired = sql`${sql.raw(since)} < now() - ${keep}::interval`;
      return {
        table,
        expired,
        sharded: key.startsWith("merchant_id"),
        statement: (merchant: MerchantScope) => expiredBatch(table, key, expired, merchant, batchSize),
      };
    }),
    {
      table: "events" as const,
      expired: eventsExpired(eventRetentionDays),
      sharded: true,
      statement: (merchant: MerchantScope) => oldEventsBatch(merchant, eventRetentionDays, batchSize),
    },
    {
      table: "event_hourly_counts" as const,
      expired: hoursEmptied(eventRetentionDays),
      sharded: true,
      statement: (merchant: MerchantScope) =>
        expiredBatch(
          "event_hourly_counts",
          "merchant_id, type, hour",
          hoursEmptied(eventRetentionDays),
          merchant,
          batchSize,
        ),
    },
  ];
  for (const { table, expired, sharded, statement } of batches) {
    const pruneAll = async (merchant: MerchantScope) => {
      let total = 0;
      for (;;) {
        const [row] = await selectRows<{ deleted: number | string }>(db, statement(merchant));
        const deleted = Number(row?.deleted ?? 0);
        total += deleted;
        if (deleted < batchSize) return total;
      }
    };
    counts[table] = sharded
      ? await forEachDueMerchant(db, { table, where: expired }, pruneAll)
      : await pruneAll(EVERY_MERCHANT);
  }
  return counts;
}

/** The worker's pruning loop: once at start, then every five minutes. */
export const startPruner = periodicService("Pruning", 5 * 60 * 1000, async () => {
  await pruneExpiredRows(getDb());
  return false;
});
