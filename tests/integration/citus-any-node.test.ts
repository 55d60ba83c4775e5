// On Citus (TEST_CITUS=1, CI's Citus pass): "Any node" (DESIGN.md, "Citus: sharded by merchant"). An API
// process given a worker's URL instead of the coordinator's serves every merchant: one whose shards are on that
// worker (its calls run there, locally) and one whose shards are on the other (its calls are handed on). It
// migrates nothing and starts no background service, a rate limit is one count across processes on different
// nodes, and what one process writes the other reads.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { merchantOnWorker, workerPorts } from "../support/citus-nodes";
import { startServerProcess } from "../support/test-server";

const citus = process.env.TEST_CITUS === "1";

type Payment = { id: number; status: string; amount: string; fee: string | null; external_id: string };

describe.runIf(citus)("on Citus, an API process given a worker (Any node)", () => {
  const coordinatorServer = inject("baseUrl");
  let workerServer: Awaited<ReturnType<typeof startServerProcess>>;
  let merchants: Array<{ merchantId: number; token: string; where: string }>;

  beforeAll(async () => {
    const [local, remote] = (await workerPorts()) as [number, number];
    const workerUrl = new URL(process.env.DATABASE_URL!);
    workerUrl.port = String(local);
    workerServer = await startServerProcess(Number(new URL(coordinatorServer).port) + 3, {
      ...(inject("serverEnv") as NodeJS.ProcessEnv),
      DATABASE_URL: workerUrl.toString(),
    });
    merchants = [
      { ...(await merchantOnWorker(local, "AnyNodeHere", 1_000)), where: "on the process's worker" },
      { ...(await merchantOnWorker(remote, "AnyNodeThere", 1_000)), where: "on the other worker" },
    ];
  }, 120_000);
  afterAll(() => workerServer?.stop());

  it("starts without migrating, and leaves partitions and background services to the coordinator's processes", () => {
    expect(workerServer.output()).toContain("On a Citus worker");
    expect(workerServer.output()).not.toMatch(/"level":50/);
  });

  it("creates, reads, lists, settles and refunds for a merchant on either worker; the coordinator's process sees it", async () => {
    for (const { token, where } of merchants) {
      const externalId = `any-node-${randomUUID()}`;
      const created = await callApi(workerServer.baseUrl, "/api/payments", {
        token,
        json: { amount: "42.50", currency: "USD", external_id: externalId },
        headers: { "Idempotency-Key": randomUUID() },
      });
      expect(created.status, where).toBe(201);
      const id = Number(created.headers.get("location")!.split("/").at(-1));

      const settled = await callApi(workerServer.baseUrl, `/api/test-helpers/payments/${id}/settle`, {
        token,
        json: { outcome: "completed" },
      });
      expect(settled.status, where).toBe(200);
      const refunded = await callApi(workerServer.baseUrl, `/api/payments/${id}/refunds`, {
        token,
        json: { amount: "2.50" },
      });
      expect(refunded.status, where).toBe(201);

      // Read back through both processes: the same payment, completed, with its fee.
      for (const server of [workerServer.baseUrl, coordinatorServer]) {
        const read = await callApi(server, `/api/payments/${id}`, { token });
        expect(read.status, where).toBe(200);
        const payment = (read.body as { data: Payment }).data;
        expect(payment, where).toMatchObject({
          id,
          status: "completed",
          amount: "42.50",
          external_id: externalId,
        });
        expect(payment.fee, where).toBe("1.53");
      }
      const listed = await callApi(workerServer.baseUrl, "/api/payments?perPage=5", { token });
      expect(listed.status, where).toBe(200);
      expect(
        (listed.body as { data: Payment[] }).data.map((payment) => payment.id),
        where,
      ).toContain(id);
    }
  });

  it("counts one rate limit across a process on the coordinator and one on a worker", async () => {
    const { token } = merchants[1]!;
    // The merchant's limit, 1,000 a minute, put back to 30 for its token: a fresh bucket.
    const { db } = await import("../support/direct-db");
    const { sql } = await import("drizzle-orm");
    await db.execute(
      sql`update merchants set rate_limit_per_minute = 30 where id = ${merchants[1]!.merchantId}`,
    );
    const { createApiToken } = await import("@/lib/tokens/tokens");
    const fresh = (
      await createApiToken(db, merchants[1]!.merchantId, { name: "shared count", scope: "read" })
    ).token;
    expect(fresh).not.toBe(token);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        callApi(index % 2 ? workerServer.baseUrl : coordinatorServer, "/api/payments?perPage=1", {
          token: fresh,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(30);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
  });

  it("refuses a bad write there as anywhere: 422 in the documented shape, nothing written", async () => {
    const { token } = merchants[0]!;
    const before = await callApi(workerServer.baseUrl, "/api/payments?perPage=1", { token });
    const refused = await callApi(workerServer.baseUrl, "/api/payments", { token, json: { amount: -1 } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: "The given data was invalid.",
      errors: { amount: ["The amount field must be at least 0."] },
    });
    const after = await callApi(workerServer.baseUrl, "/api/payments?perPage=1", { token });
    expect((after.body as { meta: { total: number } }).meta.total).toBe(
      (before.body as { meta: { total: number } }).meta.total,
    );
  });
});
