import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";
import { startServerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");

// A second server on the same database, so stopping it leaves the suite's server running: PostgreSQL only
// (PGlite admits one process). Draining does not depend on the database.
describe.skipIf(!process.env.DATABASE_URL)("stopping a server with SIGTERM", () => {
  it("finishes the requests under way: every create it answered is there, none failed, none was half-done", async () => {
    const server = await startServerProcess(
      Number(new URL(baseUrl).port) + 2,
      serverEnv as NodeJS.ProcessEnv,
    );
    const before = await paymentTotal(baseUrl, tokens.idempotency);
    const requests = Array.from({ length: 40 }, (_, index) =>
      callApi(server.baseUrl, "/api/payments", {
        token: tokens.idempotency,
        json: { amount: 5, external_id: `drain_${index}` },
      }).then(
        (response) => response.status,
        () => "not connected",
      ),
    );
    // Stop while the burst is being served.
    await Promise.race(requests);
    await server.stop();
    const outcomes = await Promise.all(requests);

    const created = outcomes.filter((outcome) => outcome === 201).length;
    expect(created).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome !== 201 && outcome !== "not connected")).toEqual([]);
    expect(await paymentTotal(baseUrl, tokens.idempotency)).toBe(before + created);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("WEB_CONCURRENCY", () => {
  it("serves from several processes on one port, and SIGTERM stops them all", async () => {
    const server = await startServerProcess(Number(new URL(baseUrl).port) + 3, {
      ...(serverEnv as NodeJS.ProcessEnv),
      WEB_CONCURRENCY: "2",
    });
    // A new connection per request, so the primary hands them out in turn.
    for (let index = 0; index < 20; index++) {
      const response = await fetch(`${server.baseUrl}/api/payments?perPage=1`, {
        headers: { Authorization: `Bearer ${tokens.api}`, Connection: "close" },
      });
      expect(response.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const pids = new Set(
      server
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"api request"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid),
    );
    expect(pids.size).toBe(2);
    await server.stop();
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
  });
});
