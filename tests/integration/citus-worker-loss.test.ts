// On Citus (TEST_CITUS=1, CI's Citus pass): one worker's loss stops only the merchants whose shards it holds
// (DESIGN.md, "Citus: sharded by merchant", "Faults"). Two merchants, one on each worker, create payments over
// real HTTP at once, each with its own Idempotency-Key; one worker's postmaster is killed (SIGKILL), then started
// again. The merchant on the live worker keeps at least 95% of its creates during the outage, the other writes
// again within 15 s of the restart, no answer is a 500, and every acknowledged payment is there once.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { createApiToken } from "@/lib/tokens/tokens";
import { callApi } from "../support/api-client";
import { db, newMerchant } from "../support/direct-db";

const citus = process.env.TEST_CITUS === "1";
const clusterDir = process.env.CITUS_DIR ?? "/var/lib/postgresql/citus-cluster";

type Answer = { at: number; status: number; key: string; externalId: string };

/** A merchant of the test's own on the worker at `port` (merchants are hashed to shards; a few tries do). */
async function merchantOnWorker(port: number, label: string) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const merchantId = await newMerchant(`${label}${attempt}`);
    const [placed] = await selectRows<{ nodeport: number }>(
      db,
      sql`select nodeport from citus_shards
          where shardid = get_shard_id_for_distribution_column('payments', ${merchantId}::bigint)`,
    );
    if (Number(placed?.nodeport) !== port) continue;
    // Its creates are hundreds a minute: past the default 30.
    await db.execute(sql`update merchants set rate_limit_per_minute = 100000 where id = ${merchantId}`);
    const { token } = await createApiToken(db, merchantId, { name: "worker loss", scope: "write" });
    return { merchantId, token };
  }
  throw new Error(`No merchant landed on the worker at ${port}`);
}

describe.runIf(citus)("on Citus, one worker lost", () => {
  it("stops only its own merchants, answers 503 never 500, and loses nothing acknowledged", async () => {
    const baseUrl = inject("baseUrl");
    const workers = await selectRows<{ nodeport: number }>(
      db,
      sql`select nodeport from pg_dist_node where groupid <> 0 and isactive order by nodeport`,
    );
    expect(workers.length).toBe(2);
    const [livePort, lostPort] = workers.map((worker) => Number(worker.nodeport)) as [number, number];
    const live = await merchantOnWorker(livePort, "Live");
    const lost = await merchantOnWorker(lostPort, "Lost");

    const answers = { live: [] as Answer[], lost: [] as Answer[] };
    let running = true;
    const creating = (who: keyof typeof answers, token: string) =>
      (async () => {
        for (let index = 0; running; index++) {
          const key = randomUUID();
          const externalId = `${who}-${key}`;
          const response = await callApi(baseUrl, "/api/payments", {
            token,
            json: { amount: "1.00", external_id: externalId },
            headers: { "Idempotency-Key": key },
          });
          answers[who].push({ at: Date.now(), status: response.status, key, externalId });
          // Refused at once while its worker is down: a client would back off, and so does this one.
          if (response.status !== 201) await sleep(50);
        }
      })();
    const loops = [creating("live", live.token), creating("lost", lost.token)];

    await sleep(2_000);
    const pid = Number(
      readFileSync(path.join(clusterDir, String(lostPort), "postmaster.pid"), "utf8").split("\n")[0],
    );
    const killedAt = Date.now();
    process.kill(pid, "SIGKILL");
    await sleep(8_000);
    const restartAt = Date.now();
    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    const restarted = spawnSync("bash", ["scripts/citus-cluster.sh", "up", database], { encoding: "utf8" });
    expect(restarted.status, restarted.stderr).toBe(0);
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
    const statuses = all.map((answer) => answer.status);
    // Created, or refused as a transient fault (503 with Retry-After): never a 500, nor anything else.
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    // The live worker's merchant kept writing while the other worker was down.
    const duringOutage = answers.live.filter((answer) => answer.at > killedAt && answer.at < restartAt);
    expect(duringOutage.length).toBeGreaterThan(10);
    const kept = duringOutage.filter((answer) => answer.status === 201).length / duringOutage.length;
    expect(
      kept,
      JSON.stringify(duringOutage.filter((answer) => answer.status !== 201).slice(0, 5)),
    ).toBeGreaterThanOrEqual(0.95);
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
