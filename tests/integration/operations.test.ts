import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { eventHour } from "@/lib/payments/outbox";
import { createPartitions } from "@/lib/platform/history-partitions";
import { pruneExpiredRows, RETENTION } from "@/lib/retention/pruning";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { db } from "../support/direct-db";

const count = async (table: string, marker: string, column: string) =>
  Number(
    (
      await selectRows<{ n: number | string }>(
        db,
        sql`select count(*) as n from ${sql.identifier(table)} where ${sql.identifier(column)} like ${`${marker}%`}`,
      )
    )[0]!.n,
  );

describe("pruning tables that would only grow", () => {
  it("deletes expired rows in batches, drops expired history partitions, and keeps the live ones", async () => {
    const marker = `prune-${randomBytes(4).toString("hex")}`;
    const { merchantId, userId } = await createMerchantWithOwner(db, {
      name: "Prune",
      email: `${marker}@example.test`,
      password: "long enough pw",
    });
    const endpoint = await createWebhookEndpoint(db, merchantId, { url: "https://example.com/prune" });
    // Past the horizon the boot creates partitions from: made here, as they were when these rows were new.
    const monthAgo = new Date(Date.now() - 31 * 86_400_000);
    await createPartitions(db, "api_request_logs", monthAgo, monthAgo);
    await createPartitions(db, "webhook_attempts", monthAgo, monthAgo);
    // For each table: 5 rows past its cut-off and 2 inside it.
    for (const [age, rows] of [
      ["old", 5],
      ["new", 2],
    ] as const) {
      for (let index = 0; index < rows; index++) {
        const suffix = `${marker}-${age}-${index}`;
        await db.execute(sql`insert into idempotency_keys (merchant_id, key, request_hash, created_at)
          values (${merchantId}, ${suffix}, 'h', now() - ${age === "old" ? "25 hours" : "1 hour"}::interval)`);
        await db.execute(sql`insert into login_attempts (email, ip, succeeded, created_at)
          values (${suffix}, '192.0.2.1', false, now() - ${age === "old" ? "31 days" : "1 minute"}::interval)`);
        await db.execute(sql`insert into signup_attempts (ip, created_at)
          values (${suffix}, now() - ${age === "old" ? "2 days" : "1 minute"}::interval)`);
        await db.execute(sql`insert into api_request_logs (merchant_id, request_id, token_id, method, path, status,
            latency_ms, client_ip, created_at)
          values (${merchantId}, ${suffix}, 1, 'GET', '/api/payments', 200, 1.5, '192.0.2.1',
                  now() - ${age === "old" ? "31 days" : "29 days"}::interval)`);
        // Events older than EVENT_RETENTION_DAYS go with their deliveries, and off their hours' counts.
        await db.execute(sql`with event as (
            insert into events (id, merchant_id, type, data, created_at)
            values (${suffix}, ${merchantId}, 'payment.pending', '{}', now() - ${age === "old" ? "31 days" : "29 days"}::interval)
            returning created_at)
          insert into event_hourly_counts as counts (merchant_id, type, hour, count)
          select ${merchantId}, 'payment.pending', ${eventHour(sql`created_at`)}, 1 from event
          on conflict (merchant_id, type, hour) do update set count = counts.count + 1`);
        // Each delivery was attempted once, the day its event was made: the attempt goes with the event.
        await db.execute(sql`with delivery as (
            insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
            values (${merchantId}, ${suffix}, ${endpoint.id}) returning id)
          insert into webhook_attempts (merchant_id, delivery_id, attempted_at, latency_ms, error)
          select ${merchantId}, id, now() - ${age === "old" ? "31 days" : "29 days"}::interval, 5, ${suffix}
          from delivery`);
        await db.execute(sql`insert into rate_limit_buckets (key, tat, allowed)
          values (${suffix}, (now() at time zone 'UTC') - ${age === "old" ? "2 hours" : "0 seconds"}::interval, true)`);
        // An invitation ends when it expires, is accepted or is revoked; kept a week from whichever was first.
        // An old accepted or revoked one expired only a day ago: its own end, not the expiry, is what counts.
        const ended = `${age === "old" ? 8 : 6} days`;
        const way = (["expired", "accepted", "revoked"] as const)[index % 3];
        await db.execute(sql`insert into invitations
            (merchant_id, email, role, token_hash, expires_at, accepted_at, revoked_at)
          values (${merchantId}, ${suffix}, 'viewer', ${suffix},
                  now() - ${way === "expired" ? ended : "1 day"}::interval,
                  ${way === "accepted" ? sql`now() - ${ended}::interval` : null},
                  ${way === "revoked" ? sql`now() - ${ended}::interval` : null})`);
        // A session unused for more than 7 days has an expired cookie.
        await db.execute(sql`insert into user_sessions (session_key, user_id, merchant_id, ip, last_used_at)
          values (${suffix}, ${userId}, ${merchantId}, '192.0.2.1',
                  now() - ${age === "old" ? "9 days" : "6 days"}::interval)`);
        // An inbox keeps its captures 7 days.
        await db.execute(sql`insert into webhook_inbox_captures (merchant_id, endpoint_id, event_id, attempt, headers,
            body, verification_valid, verification_reason, received_at)
          values (${merchantId}, ${endpoint.id}, ${suffix}, 1, '{}', '{}', true, 'ok',
                  now() - ${age === "old" ? "8 days" : "6 days"}::interval)`);
      }
    }
    const tables = [
      ["idempotency_keys", "key"],
      ["login_attempts", "email"],
      ["signup_attempts", "ip"],
      ["rate_limit_buckets", "key"],
      ["events", "id"],
      ["webhook_deliveries", "event_id"],
      ["webhook_attempts", "error"],
      ["api_request_logs", "request_id"],
      ["invitations", "email"],
      ["user_sessions", "session_key"],
      ["webhook_inbox_captures", "event_id"],
    ] as const;
    const counts = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async ([table, column]) => [table, await count(table, marker, column)] as const),
        ),
      );
    const eventCounts = async () =>
      selectRows<{ events: number | string; stale: number | string }>(
        db,
        sql`select coalesce(sum(count), 0) as events,
                   count(*) filter (where count <= 0 or hour < now() - interval '31 days') as stale
            from event_hourly_counts where merchant_id = ${merchantId}`,
      ).then(([row]) => ({ events: Number(row!.events), stale: Number(row!.stale) }));
    const before = await counts();
    const countedBefore = await eventCounts();
    // Batches of 2: three rounds per table, so the loop is exercised.
    const deleted = await pruneExpiredRows(db, 2, 30);
    const after = await counts();
    const countedAfter = await eventCounts();
    console.info("rows before and after pruning", { before, after, deleted });
    expect(before).toEqual({
      idempotency_keys: 7,
      login_attempts: 7,
      signup_attempts: 7,
      rate_limit_buckets: 7,
      events: 7,
      webhook_deliveries: 7,
      webhook_attempts: 7,
      api_request_logs: 7,
      invitations: 7,
      user_sessions: 7,
      webhook_inbox_captures: 7,
    });
    expect(after).toEqual({
      idempotency_keys: 2,
      login_attempts: 2,
      signup_attempts: 2,
      rate_limit_buckets: 2,
      events: 2,
      webhook_deliveries: 2,
      webhook_attempts: 2,
      api_request_logs: 2,
      invitations: 2,
      user_sessions: 2,
      webhook_inbox_captures: 2,
    });
    for (const { table } of RETENTION) expect(deleted[table]).toBeGreaterThanOrEqual(5);
    expect(deleted.events).toBeGreaterThanOrEqual(5);
    // The request log is not deleted from: its 31-day-old rows went with their day's partition. The old
    // attempts went with their events (their week may still hold newer ones, so it is not always dropped).
    expect(deleted.partitionsDropped.api_request_logs).toBeGreaterThanOrEqual(1);
    // The hours counted the 7 events; the pruned ones are uncounted and their emptied hours removed.
    expect(countedBefore.events).toBe(7);
    expect(countedBefore.stale).toBeGreaterThan(0);
    expect(countedAfter).toEqual({ events: 2, stale: 0 });
    expect(await pruneExpiredRows(db, 2, 30)).toEqual({
      idempotency_keys: 0,
      login_attempts: 0,
      signup_attempts: 0,
      rate_limit_buckets: 0,
      invitations: 0,
      user_sessions: 0,
      webhook_inbox_captures: 0,
      events: 0,
      event_hourly_counts: 0,
      partitionsDropped: { api_request_logs: 0, webhook_attempts: 0, security_events: 0 },
    });
  });
});

describe("the API's read path", () => {
  it("writes its rate-limit counters to an unlogged table (no WAL flush per request)", async () => {
    const [row] = await selectRows<{ relpersistence: string }>(
      db,
      sql`select relpersistence from pg_class where relname = 'rate_limit_buckets'`,
    );
    expect(row!.relpersistence).toBe("u");
  });
});

describe.skipIf(!process.env.DATABASE_URL || process.env.DATABASE_PREPARED_STATEMENTS === "false")(
  "database timeouts on a direct connection",
  () => {
    it("bounds every statement and every idle transaction of the pool", async () => {
      const [row] = await selectRows<{ statement: string; idle: string }>(
        db,
        sql`select current_setting('statement_timeout') as statement,
                   current_setting('idle_in_transaction_session_timeout') as idle`,
      );
      expect(row).toEqual({ statement: "30s", idle: "1min" });
    });
  },
);
