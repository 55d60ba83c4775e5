// On Citus (TEST_CITUS=1, CI's Citus pass): one worker's loss stops only the merchants whose shards it holds
// (DESIGN.md, "Citus: sharded by merchant", "Faults"). Two merchants, one on each worker, create payments over
// real HTTP at once, each with its own Idempotency-Key; one worker's postmaster is killed (SIGKILL), then started
// again. The merchant on the live worker is never refused (before, during and at the restart), the other writes
// again within 15 s of the restart, no request waits past a production server's deadline, no answer is a 500,
// and every acknowledged payment is there once. With the coordinator killed, every request is answered 503 at
// once (not after the deadline), and writes resume after.
import { execFile, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { expireStalePayments } from "@/lib/payments/settlement";
import { callApi } from "../support/api-client";
import { merchantOnWorker, workerPorts } from "../support/citus-nodes";
import { db } from "../support/direct-db";

const citus = process.env.TEST_CITUS === "1";
const clusterDir = process.env.CITUS_DIR ?? "/var/lib/postgresql/citus-cluster";

/** API_DEADLINE_MS's default (lib/platform/env.ts): how long a production server lets a request's work take. */
const PRODUCTION_DEADLINE_MS = 2_000;

/** When a create was sent, how long its answer took, and what it was. */
type Answer = { at: number; ms: number; status: number; key: string; externalId: string };

/** SIGKILL to every process of the node at `port`: what the machine's loss does to it. Returns when. */
function killNode(port: number): number {
  const pid = Number(
    readFileSync(path.join(clusterDir, String(port), "postmaster.pid"), "utf8").split("\n")[0],
  );
  // The postmaster alone would leave its backends serving the connections they hold until they notice: stopped
  // first so it forks no more, its backends killed, then itself, as a machine losing power would.
  process.kill(pid, "SIGSTOP");
  spawnSync("pkill", ["-KILL", "-P", String(pid)]);
  process.kill(pid, "SIGKILL");
  return Date.now();
}

/**
 * Starts the killed node again (`scripts/citus-cluster.sh up`). Its orphaned backends hold its shared memory
 * for a moment after the kill: tried again each second until they are gone, at most 20 s. Run without blocking,
 * so the writers' answers are timed as they arrive, not when the script is done.
 */
async function restartCluster(): Promise<void> {
  const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
  const up = () =>
    promisify(execFile)("bash", ["scripts/citus-cluster.sh", "up", database], { encoding: "utf8" }).then(
      () => ({ status: 0, stderr: "" }),
      (error: { code?: number; stderr?: string }) => ({
        status: error.code ?? 1,
        stderr: error.stderr ?? "",
      }),
    );
  let restarted = await up();
  for (let tries = 0; tries < 20 && restarted.status !== 0; tries++) {
    await sleep(1_000);
    restarted = await up();
  }
  expect(restarted.status, restarted.stderr).toBe(0);
}

// The thousand payments these tests leave pending are failed, as the expirer would: a later suite that expires
// every pending payment (checkout's race with the expirer) is not left a backlog.
afterAll(async () => {
  if (citus) while ((await expireStalePayments(db, 0, 1000)) > 0);
}, 120_000);

describe.runIf(citus)("on Citus, one worker lost", () => {
  it("stops only its own merchants, answers 503 never 500, and loses nothing acknowledged", async () => {
    const baseUrl = inject("baseUrl");
    const workers = await workerPorts();
    expect(workers.length).toBe(2);
    const [livePort, lostPort] = workers as [number, number];
    // Their creates are hundreds a minute: past the default 30.
    const live = await merchantOnWorker(livePort, "Live", 100_000);
    const lost = await merchantOnWorker(lostPort, "Lost", 100_000);

    const answers = { live: [] as Answer[], lost: [] as Answer[] };
    let running = true;
    const creating = (who: keyof typeof answers, token: string) =>
      (async () => {
        for (let index = 0; running; index++) {
          const key = randomUUID();
          const externalId = `${who}-${key}`;
          const at = Date.now();
          const response = await callApi(baseUrl, "/api/payments", {
            token,
            json: { amount: "1.00", external_id: externalId },
            headers: { "Idempotency-Key": key },
          });
          answers[who].push({ at, ms: Date.now() - at, status: response.status, key, externalId });
          // Refused at once while its worker is down: a client would back off, and so does this one.
          if (response.status !== 201) await sleep(50);
        }
      })();
    const loops = [creating("live", live.token), creating("lost", lost.token)];

    await sleep(2_000);
    const killedAt = killNode(lostPort);
    await sleep(8_000);
    const restartAt = Date.now();
    await restartCluster();
    // Until the lost merchant writes again, at most 60 s.
    const backBy = Date.now() + 60_000;
    while (
      Date.now() < backBy &&
      !answers.lost.some((answer) => answer.at > restartAt && answer.status === 201)
    )
      await sleep(200);
    await sleep(1_000);
    running = false;
    await Promise.all(loops);

    const all = [...answers.live, ...answers.lost];
    const slowest = (list: Answer[]) => Math.max(...list.map((answer) => answer.ms));
    console.info(
      `live worker's merchant: ${answers.live.length} answers, the slowest in ${slowest(answers.live)} ms; ` +
        `lost worker's: ${answers.lost.length}, the slowest in ${slowest(answers.lost)} ms`,
    );
    // The other worker's merchant is never refused: not before the loss, nor during it, nor at the restart.
    expect(answers.live.filter((answer) => answer.status !== 201)).toEqual([]);
    // No request waits past the deadline a production server answers by (API_DEADLINE_MS's default, 2 s; this
    // server's is longer), refused or not.
    expect(all.filter((answer) => answer.ms > PRODUCTION_DEADLINE_MS)).toEqual([]);
    const statuses = all.map((answer) => answer.status);
    // Created, or refused as a transient fault (503 with Retry-After): never a 500, nor anything else.
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    // The live worker's merchant kept writing while the other worker was down (every answer a 201, above).
    const duringOutage = answers.live.filter((answer) => answer.at > killedAt && answer.at < restartAt);
    expect(duringOutage.length).toBeGreaterThan(10);
    // The lost worker's merchant was refused while it was down, and writes again within 15 s of the restart.
    expect(
      answers.lost.some((answer) => answer.at > killedAt && answer.at < restartAt && answer.status === 503),
    ).toBe(true);
    const firstBack = answers.lost.find((answer) => answer.at > restartAt && answer.status === 201);
    expect(firstBack).toBeDefined();
    expect(firstBack!.at - restartAt).toBeLessThanOrEqual(15_000);

    // Every acknowledged create is there once; a refused one retried with its key makes exactly one.
    for (const [who, merchant] of [
      ["live", live],
      ["lost", lost],
    ] as const) {
      const refused = answers[who].filter((answer) => answer.status === 503).slice(0, 5);
      for (const answer of refused) {
        const retried = await callApi(baseUrl, "/api/payments", {
          token: merchant.token,
          json: { amount: "1.00", external_id: answer.externalId },
          headers: { "Idempotency-Key": answer.key },
        });
        expect(retried.status).toBe(201);
      }
      const stored = await selectRows<{ external_id: string; count: string }>(
        db,
        sql`select external_id, count(*)::text as count from payments
            where merchant_id = ${merchant.merchantId} group by external_id`,
      );
      const counts = new Map(stored.map((row) => [row.external_id, Number(row.count)]));
      expect(stored.filter((row) => Number(row.count) !== 1)).toEqual([]);
      const acknowledged = [...answers[who].filter((answer) => answer.status === 201), ...refused];
      expect(acknowledged.filter((answer) => counts.get(answer.externalId) !== 1)).toEqual([]);
    }
  });
});

describe.runIf(citus)("on Citus, the coordinator lost", () => {
  it("answers 503 at once while it is down, never 500, and writes again once it is back", async () => {
    const baseUrl = inject("baseUrl");
    const nodes = await selectRows<{ nodeport: number; groupid: number }>(
      db,
      sql`select nodeport, groupid from pg_dist_node order by groupid`,
    );
    const coordinatorPort = Number(nodes[0]!.nodeport);
    const { token } = await merchantOnWorker(Number(nodes[1]!.nodeport), "Coordinator", 100_000);
    const answers: Array<{ started: number; ms: number; status: number }> = [];
    let running = true;
    const creating = async () => {
      while (running) {
        const started = Date.now();
        const response = await callApi(baseUrl, "/api/payments", { token, json: { amount: "1.00" } });
        answers.push({ started, ms: Date.now() - started, status: response.status });
        if (response.status !== 201) await sleep(50);
      }
    };
    const loops = [creating(), creating(), creating(), creating()];
    await sleep(1_500);
    const killedAt = killNode(coordinatorPort);
    await sleep(4_000);
    const restartAt = Date.now();
    await restartCluster();
    const backBy = Date.now() + 60_000;
    while (
      Date.now() < backBy &&
      !answers.some((answer) => answer.started > restartAt && answer.status === 201)
    )
      await sleep(200);
    running = false;
    await Promise.all(loops);

    expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 503)).toEqual([]);
    const duringOutage = answers.filter((answer) => answer.started > killedAt && answer.started < restartAt);
    expect(duringOutage.length).toBeGreaterThan(10);
    expect(duringOutage.filter((answer) => answer.status !== 503)).toEqual([]);
    // At once: far inside the API's deadline (API_DEADLINE_MS, 10 s by default and 30 s in CI), not waiting it out.
    expect(duringOutage.filter((answer) => answer.ms > 5_000)).toEqual([]);
    const slowest = Math.max(...duringOutage.map((answer) => answer.ms));
    console.info(`coordinator down: ${duringOutage.length} answers, all 503, the slowest in ${slowest} ms`);
    expect(answers.some((answer) => answer.started > restartAt && answer.status === 201)).toBe(true);
  });
});
