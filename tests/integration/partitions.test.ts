import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { flushRequestLog, recordApiRequest } from "@/lib/logs/request-log";
import {
  createHistoryPartitions,
  createPartitions,
  dropExpiredPartitions,
  type HistoryTable,
} from "@/lib/platform/history-partitions";
import { recordAttempts } from "@/lib/webhooks/delivery-queue";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { db } from "../support/direct-db";

const DAY_MS = 86_400_000;
const KEEP_30_DAYS = { api_request_logs: 30, webhook_attempts: 30, security_events: 30 };

const partitions = (table: HistoryTable) =>
  selectRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = ${table}::regclass order by 1`,
  ).then((rows) => rows.map((row) => row.name));

/** The partition a time falls in, by the names create_history_partitions() gives (UTC days, weeks from Monday). */
function partitionOf(table: HistoryTable, at: Date): string {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (table === "webhook_attempts") start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  return `${table}_p${start.toISOString().slice(0, 10).replaceAll("-", "")}`;
}

const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

async function merchantWithDelivery(label: string) {
  const marker = `${label}-${randomBytes(4).toString("hex")}`;
  const { merchantId } = await createMerchantWithOwner(db, {
    name: label,
    email: `${marker}@example.test`,
    password: "long enough pw",
  });
  const endpoint = await createWebhookEndpoint(db, merchantId, { url: `https://example.com/${marker}` });
  await db.execute(
    sql`insert into events (id, merchant_id, type, data) values (${marker}, ${merchantId}, 'payment.pending', '{}')`,
  );
  const [delivery] = await selectRows<{ id: number | string }>(
    db,
    sql`insert into webhook_deliveries (merchant_id, event_id, endpoint_id)
        values (${merchantId}, ${marker}, ${endpoint.id}) returning id`,
  );
  return { marker, merchantId, endpointId: endpoint.id, deliveryId: Number(delivery!.id) };
}

const insertAttempt = (merchantId: number, deliveryId: number, at: Date) =>
  db.execute(sql`insert into webhook_attempts (merchant_id, delivery_id, attempted_at, latency_ms)
    values (${merchantId}, ${deliveryId}, ${at.toISOString()}::timestamptz, 5)`);

const insertLogEntry = (merchantId: number, requestId: string, at: Date) =>
  db.execute(sql`insert into api_request_logs (merchant_id, request_id, token_id, method, path, status, latency_ms,
      client_ip, created_at)
    values (${merchantId}, ${requestId}, 1, 'GET', '/api/payments', 200, 1.5, '192.0.2.1', ${at.toISOString()}::timestamptz)`);

const countWhere = async (table: string, condition: ReturnType<typeof sql>) =>
  Number(
    (
      await selectRows<{ n: number | string }>(
        db,
        sql`select count(*) as n from ${sql.identifier(table)} where ${condition}`,
      )
    )[0]!.n,
  );

describe("partitioned history", () => {
  it("is partitioned by time: the request log by day, the attempt log by week", async () => {
    const rows = await selectRows<{ table: string; strategy: string; column: string }>(
      db,
      sql`select c.relname as table, p.partstrat as strategy, a.attname as column
          from pg_partitioned_table p join pg_class c on c.oid = p.partrelid
          join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
          where c.relname in ('api_request_logs', 'webhook_attempts', 'events') order by 1`,
    );
    expect(rows).toEqual([
      { table: "api_request_logs", strategy: "r", column: "created_at" },
      { table: "webhook_attempts", strategy: "r", column: "attempted_at" },
    ]);
  });

  it("the partition service creates every partition from the retention's horizon to a week ahead", async () => {
    // As the service would run 20 days from now: a week past that is what it must add.
    const later = daysFromNow(20);
    // The shared database keeps what an earlier run made: the last ones are made again here.
    const last = [
      partitionOf("api_request_logs", daysFromNow(27)),
      partitionOf("webhook_attempts", daysFromNow(27)),
    ];
    await db.execute(sql`drop table if exists ${sql.identifier(last[0]!)}, ${sql.identifier(last[1]!)}`);
    const created = await createHistoryPartitions(db, later, KEEP_30_DAYS);
    expect(created.api_request_logs).toBeGreaterThanOrEqual(1);
    expect(created.webhook_attempts).toBeGreaterThanOrEqual(1);
    const logs = await partitions("api_request_logs");
    const attempts = await partitions("webhook_attempts");
    for (let day = -30; day <= 27; day++)
      expect(logs).toContain(partitionOf("api_request_logs", daysFromNow(day)));
    for (let day = -30; day <= 27; day += 7)
      expect(attempts).toContain(partitionOf("webhook_attempts", daysFromNow(day)));
    expect(attempts).toContain(partitionOf("webhook_attempts", daysFromNow(27)));
    // Nothing left to do, and nothing made twice.
    expect(await createHistoryPartitions(db, later, KEEP_30_DAYS)).toEqual({
      api_request_logs: 0,
      webhook_attempts: 0,
      security_events: 0,
    });
  });

  it("retention drops the partitions wholly past it, and keeps the recent ones with their rows", async () => {
    const { marker, merchantId, deliveryId } = await merchantWithDelivery("retention");
    const old = daysFromNow(-40);
    const veryOld = daysFromNow(-50);
    await createPartitions(db, "api_request_logs", old, old);
    await createPartitions(db, "webhook_attempts", veryOld, veryOld);
    for (const [at, label] of [
      [old, "old"],
      [daysFromNow(-29), "recent"],
      [new Date(), "now"],
    ] as const)
      await insertLogEntry(merchantId, `${marker}-${label}`, at);
    await insertAttempt(merchantId, deliveryId, veryOld);
    await insertAttempt(merchantId, deliveryId, daysFromNow(-1));
    expect(await countWhere("api_request_logs", sql`merchant_id = ${merchantId}`)).toBe(3);
    expect(await countWhere("webhook_attempts", sql`delivery_id = ${deliveryId}`)).toBe(2);

    const dropped = await dropExpiredPartitions(db, KEEP_30_DAYS);
    expect(dropped.api_request_logs).toBeGreaterThanOrEqual(1);
    expect(dropped.webhook_attempts).toBeGreaterThanOrEqual(1);
    const logs = await partitions("api_request_logs");
    expect(logs).not.toContain(partitionOf("api_request_logs", old));
    expect(logs).toContain(partitionOf("api_request_logs", daysFromNow(-29)));
    expect(await partitions("webhook_attempts")).not.toContain(partitionOf("webhook_attempts", veryOld));
    // The old rows went with their partitions; the recent ones are all there.
    const kept = await selectRows<{ request_id: string }>(
      db,
      sql`select request_id from api_request_logs where merchant_id = ${merchantId} order by created_at`,
    );
    expect(kept.map((row) => row.request_id)).toEqual([`${marker}-recent`, `${marker}-now`]);
    expect(await countWhere("webhook_attempts", sql`delivery_id = ${deliveryId}`)).toBe(1);
    // Nothing else is past the retention.
    expect(await dropExpiredPartitions(db, KEEP_30_DAYS)).toEqual({
      api_request_logs: 0,
      webhook_attempts: 0,
      security_events: 0,
    });
  });

  it("a delivery's attempts still go with it (the foreign key's cascade reaches every partition)", async () => {
    const { merchantId, deliveryId } = await merchantWithDelivery("cascade");
    for (const days of [-8, -1, 0]) await insertAttempt(merchantId, deliveryId, daysFromNow(days));
    await db.execute(sql`delete from webhook_deliveries where id = ${deliveryId}`);
    expect(await countWhere("webhook_attempts", sql`delivery_id = ${deliveryId}`)).toBe(0);
  });

  it("the writers create a partition that is missing and write the rows", async () => {
    const { marker, merchantId, endpointId, deliveryId } = await merchantWithDelivery("missing");
    // A day no service has reached, as after weeks without a worker.
    const at = daysFromNow(60);
    const logPartition = partitionOf("api_request_logs", at);
    const attemptPartition = partitionOf("webhook_attempts", at);
    await db.execute(
      sql`drop table if exists ${sql.identifier(logPartition)}, ${sql.identifier(attemptPartition)}`,
    );
    try {
      recordApiRequest({
        merchantId,
        tokenId: 1,
        requestId: `${marker}-future`,
        method: "GET",
        path: `/api/payments?${marker}`,
        status: 200,
        latencyMs: 1,
        clientIp: "192.0.2.1",
        idempotencyKey: null,
        responseBody: null,
        createdAtMs: at.getTime(),
      });
      await flushRequestLog();
      expect(await countWhere(logPartition, sql`request_id = ${`${marker}-future`}`)).toBe(1);

      await recordAttempts(db, [
        {
          delivery: {
            id: deliveryId,
            merchantId,
            endpointId,
            eventId: marker,
            eventType: "payment.pending",
            data: {},
            attemptCount: 0,
            kind: "url",
            url: "https://example.com",
            secrets: [],
            problem: null,
          },
          attemptedAt: at,
          status: 200,
          latencyMs: 5,
          error: null,
          excerpt: null,
          deliveryStatus: "succeeded",
          nextAttemptAt: at,
          gone: false,
        },
      ]);
      expect(await countWhere(attemptPartition, sql`delivery_id = ${deliveryId}`)).toBe(1);
      expect(await countWhere("webhook_deliveries", sql`id = ${deliveryId} and status = 'succeeded'`)).toBe(
        1,
      );
    } finally {
      await db.execute(
        sql`drop table if exists ${sql.identifier(logPartition)}, ${sql.identifier(attemptPartition)}`,
      );
    }
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "processes creating the same partition at once make it once, without an error",
    async () => {
      const at = daysFromNow(90);
      const name = partitionOf("api_request_logs", at);
      await db.execute(sql`drop table if exists ${sql.identifier(name)}`);
      const { default: postgres } = await import("postgres");
      const clients = [1, 2, 3, 4].map(() =>
        postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} }),
      );
      try {
        const created = await Promise.all(
          clients.map((client) =>
            client<{ created: number }[]>`select create_history_partitions('api_request_logs', 'day',
            ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz) as created`.then(
              ([row]) => row!.created,
            ),
          ),
        );
        expect(created.reduce((sum, count) => sum + count, 0)).toBe(1);
        expect(await partitions("api_request_logs")).toContain(name);
      } finally {
        await Promise.all(clients.map((client) => client.end()));
        await db.execute(sql`drop table if exists ${sql.identifier(name)}`);
      }
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    "a partition held by a long query is left for the next round",
    async () => {
      const old = daysFromNow(-45);
      const name = partitionOf("api_request_logs", old);
      await createPartitions(db, "api_request_logs", old, old);
      const { default: postgres } = await import("postgres");
      const reader = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      try {
        // A reader's transaction holds the table's share lock, which the drop must wait for.
        const reading = reader.begin(async (tx) => {
          await tx`select count(*) from api_request_logs`;
          await held;
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        const started = Date.now();
        await expect(dropExpiredPartitions(db, KEEP_30_DAYS)).resolves.toMatchObject({ api_request_logs: 0 });
        expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
        expect(await partitions("api_request_logs")).toContain(name);
        release();
        await reading;
        expect((await dropExpiredPartitions(db, KEEP_30_DAYS)).api_request_logs).toBeGreaterThanOrEqual(1);
        expect(await partitions("api_request_logs")).not.toContain(name);
      } finally {
        release();
        await reader.end();
      }
    },
  );

  it("the schema and the migrations agree: drizzle-kit has nothing to generate", async () => {
    // On a copy, so a difference would not leave a stray migration in the repository.
    const out = path.join(mkdtempSync(path.join(tmpdir(), "payments-migrations-")), "migrations");
    cpSync(path.join(process.cwd(), "db", "migrations"), out, { recursive: true });
    const { stdout } = await promisify(execFile)(
      "npx",
      [
        "drizzle-kit",
        "generate",
        "--dialect=postgresql",
        "--schema=db/schema/index.ts",
        "--casing=snake_case",
        // drizzle-kit puts "./" before the path: it must be relative.
        `--out=${path.relative(process.cwd(), out)}`,
      ],
      { cwd: process.cwd() },
    );
    expect(stdout).toContain("No schema changes, nothing to migrate");
  });
});
