// The primary database's machine lost, and a planned switchover, under load: on a pg_auto_failover formation
// (scripts/ci-failover.sh: a monitor and two nodes, synchronous replication) reached through a multi-host
// DATABASE_URL with target_session_attrs=read-write, its nodes also the read replicas. Runs only in CI's
// failover pass (TEST_FAILOVER=1), which builds the formation; it kills processes as root.
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { databaseUrlParts, withDatabaseName } from "@/db/url";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { setMerchantRateLimit } from "@/lib/accounts/merchants";
import { createApiToken } from "@/lib/tokens/tokens";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { followSse, type FollowedStream } from "../support/sse-client";
import { startServerProcess, startWorkerProcess, type WorkerProcess } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

const enabled = process.env.TEST_FAILOVER === "1" && Boolean(process.env.DATABASE_URL);
const serverEnv = inject("serverEnv");
const { db } = enabled ? await import("../support/direct-db") : { db: undefined };
const script = path.resolve(import.meta.dirname, "../../scripts/ci-failover.sh");
/** scripts/ci-failover.sh, in the background: the load goes on while it runs. */
const failover = async (...args: string[]) =>
  (await promisify(execFile)(script, args, { encoding: "utf8", timeout: 300_000 })).stdout.trim();

const port = Number(new URL(inject("baseUrl")).port) + 43;
const receiverPort = port + 2;
const receiver = new WebhookReceiver();
let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
let worker: WorkerProcess | undefined;

/** Each node of the formation by itself, as a read replica: read only while it is in recovery. */
function nodeUrls(url: string): string {
  const { hosts, database } = databaseUrlParts(url);
  return hosts.map((host) => withDatabaseName(`postgres://postgres@${host}`, database)).join(",");
}

beforeAll(async () => {
  if (!enabled) return;
  await receiver.listen(receiverPort);
  const env = {
    ...(serverEnv as NodeJS.ProcessEnv),
    DATABASE_REPLICA_URLS: nodeUrls(serverEnv.DATABASE_URL!),
  };
  server = await startServerProcess(port, { ...env, WEB_CONCURRENCY: "1" });
  worker = await startWorkerProcess(env, { WORKER_METRICS_PORT: String(port + 3) });
});

afterAll(async () => {
  await worker?.kill("SIGTERM");
  // A stop that overran SHUTDOWN_TIMEOUT_SECONDS names what it waited on in the worker's log: shown here.
  const overran = worker
    ?.output()
    .split("\n")
    .filter((line) => line.includes("Stop not finished"));
  if (overran?.length) console.warn(`The worker's stop overran:\n${overran.join("\n")}`);
  await server?.stop();
  await receiver.close();
});

type Outcome = { status: number | string; ms: number; retryAfter: string | null; json: boolean };

/** A merchant of its own for a run: its token, its webhook endpoint and its stream. */
async function merchantUnderTest(label: string) {
  const { merchantId } = await createMerchantWithOwner(db!, {
    name: `Failover ${label}`,
    email: `failover-${label}-${randomBytes(4).toString("hex")}@example.test`,
    password: "long enough pw",
  });
  // Far above what four clients send: every refusal below is the failover's.
  await setMerchantRateLimit(db!, merchantId, { per_minute: 1_000_000 });
  const { token } = await createApiToken(db!, merchantId, { name: "Backend" });
  const hookPath = `/failover-${label}`;
  const endpoint = await createWebhookEndpoint(db!, merchantId, {
    url: `http://127.0.0.1:${receiverPort}${hookPath}`,
  });
  receiver.expectSecret(hookPath, endpoint.secret);
  return { merchantId, token, hookPath };
}

/**
 * Creates payments from `clients` loops until stopped, each with its own Idempotency-Key, sent again with the
 * same key after a 503 or a broken connection until it is acknowledged (201, or 200 replayed).
 */
function createLoad(baseUrl: string, token: string, clients = 4) {
  const acknowledged = new Map<string, number>();
  const outcomes: Outcome[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const key = randomUUID();
      for (;;) {
        const startedAt = Date.now();
        const outcome: Outcome = await fetch(`${baseUrl}/api/payments`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            "Idempotency-Key": key,
          },
          body: JSON.stringify({ amount: "3.00" }),
          signal: AbortSignal.timeout(60_000),
        }).then(
          async (response) => {
            const body: unknown = await response.json().catch(() => undefined);
            // 201, a replay too (Idempotent-Replayed): the payment's URL either way.
            if (response.status < 300)
              acknowledged.set(key, Number(response.headers.get("location")!.split("/").at(-1)));
            return {
              status: response.status,
              ms: Date.now() - startedAt,
              retryAfter: response.headers.get("retry-after"),
              json: body !== undefined,
            };
          },
          (error: Error & { cause?: { code?: string } }) => ({
            status: error.cause?.code ?? error.name,
            ms: Date.now() - startedAt,
            retryAfter: null,
            json: false,
          }),
        );
        outcomes.push(outcome);
        if (acknowledged.has(key)) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  const loops = Array.from({ length: clients }, loop);
  return {
    acknowledged,
    outcomes,
    /** Stops after each client's key under way is acknowledged. */
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Polls /readyz: what it answered, in order. */
function watchReadiness(baseUrl: string) {
  const answers: number[] = [];
  let running = true;
  const watching = (async () => {
    while (running) {
      answers.push(
        await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
          (response) => response.status,
          () => 0,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return { answers, stop: async () => ((running = false), await watching) };
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Load on a fresh merchant, `disrupt` after a few seconds of it, load until writes have been acknowledged
 * again for a while; then what a merchant's books must show: every acknowledged payment there once, nothing
 * else, every event delivered signed and streamed with no gap.
 */
async function underLoad(label: string, disrupt: () => Promise<unknown>) {
  const { merchantId, token, hookPath } = await merchantUnderTest(label);
  const stream: FollowedStream = followSse(`${server!.baseUrl}/api/events/stream`, token);
  // A stream without Last-Event-ID starts at its opening: the load waits for it, or its first events (on a
  // loaded machine, commits before the stream's lease) are rightly not streamed, and the test waits for them.
  await until("the stream open", () => stream.opened >= 1, 30_000);
  const readiness = watchReadiness(server!.baseUrl);
  const load = createLoad(server!.baseUrl, token);
  try {
    await until("creates before the disruption", () => load.acknowledged.size >= 20, 60_000);
    await disrupt();
    const disruptedAt = load.outcomes.length;
    const ackedAtDisruption = load.acknowledged.size;
    // Service is back when creates are acknowledged again; a few seconds more of it.
    await until(
      "creates acknowledged after the disruption",
      () => load.acknowledged.size >= ackedAtDisruption + 40,
      120_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await load.stop();
    await readiness.stop();

    const acknowledged = [...load.acknowledged.values()];
    const refused = load.outcomes
      .slice(disruptedAt)
      .filter((outcome) => typeof outcome.status !== "number" || outcome.status >= 300);
    console.info(`${label}: ${acknowledged.length} creates acknowledged; after the disruption`, {
      requests: load.outcomes.length - disruptedAt,
      refused: refused.length,
      statuses: [...new Set(refused.map((outcome) => outcome.status))],
      slowestMs: Math.max(...load.outcomes.map((outcome) => outcome.ms)),
    });
    // Refused only with a 503 JSON and its Retry-After (or a connection dropped mid-request), never a 500,
    // and never left hanging past the statement timeout.
    for (const outcome of load.outcomes) {
      if (typeof outcome.status === "number" && outcome.status >= 300) {
        expect(outcome.status, JSON.stringify(outcome)).toBe(503);
        expect(outcome.json && outcome.retryAfter !== null, JSON.stringify(outcome)).toBe(true);
      }
      expect(outcome.ms).toBeLessThan(35_000);
    }

    // Every acknowledged payment exactly once, and no payment nobody was told about.
    const rows = await selectRows<{ id: string }>(
      db!,
      sql`select id::text from payments where merchant_id = ${merchantId}`,
    );
    const stored = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    expect(stored).toEqual([...acknowledged].sort((a, b) => a - b));

    // Every event the merchant has (payment.pending for each, and settlements as they come) delivered signed,
    // and streamed once, with no gap, across the stream's reconnections.
    const eventIds = async () =>
      (
        await selectRows<{ id: string }>(db!, sql`select id from events where merchant_id = ${merchantId}`)
      ).map((row) => row.id);
    const events = await eventIds();
    expect(events.length).toBeGreaterThanOrEqual(acknowledged.length);
    await until(
      "every event delivered",
      () => {
        const delivered = new Set(receiver.on(hookPath).map((hook) => hook.id));
        return events.every((id) => delivered.has(id));
      },
      180_000,
    );
    expect(receiver.on(hookPath).every((hook) => hook.verified)).toBe(true);
    await until(
      "every event streamed",
      () => {
        const streamed = new Set(stream.events.map((event) => event.id));
        return events.every((id) => streamed.has(id));
      },
      120_000,
    );
    const streamed = stream.events.map((event) => event.id!);
    expect(new Set(streamed).size, "an event streamed twice").toBe(streamed.length);
    expect(streamed.every((id) => id.startsWith("evt_"))).toBe(true);
    // The API reads the new primary's writes at once, through the replicas or the primary.
    const last = acknowledged.at(-1)!;
    const read = await fetch(`${server!.baseUrl}/api/payments/${last}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(200);
    // The stream either stayed open (its reader reconnected to the new primary) or was opened again.
    console.info(`${label}: the stream was opened ${stream.opened} time(s), ${streamed.length} events`);
    return { readiness: readiness.answers };
  } finally {
    await load.stop();
    await readiness.stop();
    stream.stop();
  }
}

describe.skipIf(!enabled)("failover of the primary database (pg_auto_failover)", () => {
  it("the primary's machine lost (kill -9 of its keeper and Postgres): nothing acknowledged lost or doubled, every event delivered and streamed", async () => {
    let killed = "";
    try {
      const { readiness } = await underLoad("killed", async () => {
        killed = await failover("kill-primary");
      });
      // /readyz said so while no writable primary answered, and says ready again.
      expect(readiness).toContain(503);
      expect(readiness.at(-1)).toBe(200);
    } finally {
      // The lost machine comes back, as the standby.
      if (killed) await failover("restart-node", killed.split(" ")[1]!);
    }
  }, 600_000);

  it("a planned switchover: the same", async () => {
    // From a healthy formation (a primary and a secondary), whatever the test before left.
    await failover("up");
    await underLoad("switchover", () => failover("switchover"));
  }, 600_000);
});
