import { randomBytes } from "node:crypto";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { createPayment } from "@/lib/payments/create-payment";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { CuttableProxy } from "../support/cuttable-proxy";
import { startWorkerProcess } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// Several worker processes share one database only on PostgreSQL; PGlite admits a single process.
const postgres = Boolean(process.env.DATABASE_URL);
const serverEnv = inject("serverEnv");
const receiver = new WebhookReceiver();
const port = Number(serverEnv.TEST_RECEIVER_PORT) + 1;
const { db } = postgres ? await import("../support/direct-db") : { db: undefined };

beforeAll(() => receiver.listen(port));
afterAll(() => receiver.close());

async function merchantWithEndpoint(path: string) {
  const account = await createMerchantWithOwner(db!, {
    name: "Workers",
    email: `workers-${randomBytes(5).toString("hex")}@example.test`,
    password: "long enough pw",
  });
  await createWebhookEndpoint(db!, account.merchantId, {
    url: `http://127.0.0.1:${port}${path}`,
    events: ["payment.pending"],
  });
  return account.merchantId;
}

async function deliveriesOf(merchantId: number) {
  return db!
    .select({
      id: webhookDeliveries.id,
      status: webhookDeliveries.status,
      eventId: webhookDeliveries.eventId,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.merchantId, merchantId));
}

async function waitUntilAllSucceeded(merchantId: number, count: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const rows = await deliveriesOf(merchantId);
    if (rows.length === count && rows.every((row) => row.status === "succeeded")) return rows;
    if (Date.now() > deadline)
      throw new Error(`Deliveries not done: ${JSON.stringify(rows.map((row) => row.status))}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!postgres)("webhook workers as separate processes", () => {
  it("a worker stopped as soon as it says it is running exits, its first rounds under way (it used to pause an hour)", async () => {
    for (let stop = 0; stop < 3; stop++) {
      const worker = await startWorkerProcess(serverEnv);
      await worker.kill("SIGTERM");
      expect(worker.output()).toContain("Stopping: finishing the sends under way");
    }
  });

  it("a stop that cannot finish (a send its endpoint never answers) ends after SHUTDOWN_TIMEOUT_SECONDS with code 1, naming what it waited on", async () => {
    const merchantId = await merchantWithEndpoint("/stuck");
    receiver.hold("/stuck");
    const worker = await startWorkerProcess(serverEnv, {
      SHUTDOWN_TIMEOUT_SECONDS: "2",
      WEBHOOK_TIMEOUT_MS: "60000",
    });
    try {
      await createPayment(db!, merchantId, { amount: 1 }, { source: "cli", autoSettleMs: 0 });
      await receiver.waitFor("/stuck", (hooks) => hooks.length === 1);
      await worker.kill("SIGTERM");
      expect(worker.exitCode()).toBe(1);
      expect(worker.output()).toContain("Stop not finished after 2 s");
      expect(worker.output()).toContain('"stopping":["startWebhookWorker"]');
    } finally {
      receiver.release("/stuck");
    }
  });

  it("two workers: each delivery succeeds once", async () => {
    const merchantId = await merchantWithEndpoint("/pair");
    const metricsPorts = [port + 1, port + 2];
    const workers = await Promise.all(
      metricsPorts.map((metricsPort) =>
        startWorkerProcess(serverEnv, { WORKER_METRICS_PORT: String(metricsPort) }),
      ),
    );
    try {
      for (let index = 0; index < 60; index++)
        await createPayment(db!, merchantId, { amount: 1 }, { source: "cli", autoSettleMs: 0 });
      const rows = await waitUntilAllSucceeded(merchantId, 60);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ids = receiver.on("/pair").map((hook) => hook.id);
      expect(ids).toHaveLength(60);
      expect(new Set(ids)).toEqual(new Set(rows.map((row) => row.eventId)));
      const [attempts] = await db!
        .select({ count: sql<number>`count(*)::int` })
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((row) => row.id),
          ),
        );
      expect(attempts!.count).toBe(60);
      // Each worker reports its own deliveries on WORKER_METRICS_PORT, behind the metrics token: together, all
      // 60 (either may have done none of them: without LISTEN, behind PgBouncer, one poll can take them all).
      let succeededTotal = 0;
      for (const metricsPort of metricsPorts) {
        const scrape = (authorization?: string) =>
          fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
            headers: authorization ? { Authorization: authorization } : {},
          });
        expect((await scrape()).status).toBe(401);
        const metrics = await (await scrape(`Bearer ${serverEnv.METRICS_TOKEN}`)).text();
        const succeeded = /^webhook_delivery_attempts_total\{outcome="succeeded"\} (\d+)$/m.exec(metrics);
        succeededTotal += Number(succeeded?.[1] ?? 0);
        expect(metrics).toMatch(/^db_pool_connections_in_use \d+$/m);
        const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
        expect(await health.json()).toEqual({ status: "ok" });
      }
      expect(succeededTotal).toBeGreaterThanOrEqual(60);
    } finally {
      await Promise.all(workers.map((worker) => worker.kill("SIGTERM")));
    }
  });

  it("a worker killed with SIGKILL mid-batch loses nothing: its claims expire and another worker delivers them", async () => {
    const merchantId = await merchantWithEndpoint("/slow");
    for (let index = 0; index < 20; index++)
      await createPayment(db!, merchantId, { amount: 1 }, { source: "cli", autoSettleMs: 0 });
    receiver.delay("/slow", 3000);
    // A 2 s timeout gives a 4 s lease: the killed worker's claims come due again soon.
    const doomed = await startWorkerProcess(serverEnv, { WEBHOOK_TIMEOUT_MS: "2000" });
    await receiver.waitFor("/slow", (hooks) => hooks.length >= 5);
    // Mid-batch: its sends are in flight, its claims leased and nothing recorded yet.
    const [leased] = await db!
      .select({ count: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.merchantId, merchantId),
          eq(webhookDeliveries.attemptCount, 0),
          gt(webhookDeliveries.nextAttemptAt, sql`now()`),
        ),
      );
    expect(leased!.count).toBeGreaterThanOrEqual(5);
    await doomed.kill("SIGKILL");
    expect(() => process.kill(doomed.pid, 0)).toThrow();
    expect((await deliveriesOf(merchantId)).every((row) => row.status === "pending")).toBe(true);

    receiver.delay("/slow", 0);
    const survivor = await startWorkerProcess(serverEnv);
    try {
      const rows = await waitUntilAllSucceeded(merchantId, 20);
      expect(new Set(receiver.on("/slow").map((hook) => hook.id))).toEqual(
        new Set(rows.map((row) => row.eventId)),
      );
    } finally {
      await survivor.kill("SIGTERM");
    }
  });

  it("a database that goes away while a send is under way: the attempt is recorded once it is back, sent once", async () => {
    const merchantId = await merchantWithEndpoint("/outage");
    receiver.hold("/outage");
    const database = new URL(process.env.DATABASE_URL!);
    const proxy = new CuttableProxy({ host: database.hostname, port: Number(database.port || 5432) });
    const proxyPort = port + 5;
    await proxy.listen(proxyPort);
    const worker = await startWorkerProcess(serverEnv, {
      DATABASE_URL: Object.assign(new URL(database.href), { host: `127.0.0.1:${proxyPort}` }).href,
    });
    try {
      await createPayment(db!, merchantId, { amount: 1 }, { source: "cli", autoSettleMs: 0 });
      await receiver.waitFor("/outage", (hooks) => hooks.length === 1);
      // The receiver answers 200 only once the worker cannot reach the database; the database comes back once
      // the worker has failed to record that answer (no race with the load on the machine).
      proxy.cut();
      receiver.release("/outage");
      await worker.waitForOutput(/could not record \d+ attempts yet; trying again/);
      proxy.restore();
      // Well inside the claim's 30 s lease: recorded by the retry, not sent again after the lease ran out.
      const [delivery] = await waitUntilAllSucceeded(merchantId, 1);
      const attempts = await db!
        .select({ status: webhookAttempts.responseStatus })
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, delivery!.id));
      expect(attempts).toEqual([{ status: 200 }]);
      expect(receiver.on("/outage")).toHaveLength(1);
    } finally {
      // A failed wait above must not leave the send hanging on the receiver.
      receiver.release("/outage");
      await worker.kill("SIGTERM");
      await proxy.close();
    }
  });
});
