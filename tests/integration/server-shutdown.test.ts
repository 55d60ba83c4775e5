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
