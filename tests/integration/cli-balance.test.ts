// `payments balance` as a child process against the started server: a line per currency with what is
// available and what is pending, one JSON object per currency with --json, and a line that says so when the
// merchant has no balance yet.
import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { runCliAsync } from "../support/cli-process";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");

describe("payments balance", () => {
  it("prints each currency's available and pending, as the API has them", async () => {
    // The ledger merchant's balance moves only here on this server.
    const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
      callApi(baseUrl, path, { ...request, token: tokens.ledger });
    const created = await api("/api/payments", { json: { amount: "10.00", currency: "EUR" } });
    const id = Number(created.headers.get("location")!.split("/").at(-1));
    // The simulator may complete it first (10.00 completes either way): a 409 then is the same outcome.
    const settled = await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome: "completed" } });
    expect([200, 409]).toContain(settled.status);
    const env = { apiUrl: baseUrl, apiKey: tokens.ledger };
    const printed = await runCliAsync(["balance"], env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe("EUR  available 0.00  pending 9.41\n");
    const json = await runCliAsync(["balance", "--json"], env);
    expect(JSON.parse(json.stdout)).toEqual({
      type: "balance",
      currency: "EUR",
      available: "0.00",
      pending: "9.41",
    });
  });

  it("says when there is no balance yet", async () => {
    const printed = await runCliAsync(["balance"], { apiUrl: baseUrl, apiKey: tokens.priced });
    expect([printed.code, printed.stdout]).toEqual([0, "No balance yet.\n"]);
  });
});
