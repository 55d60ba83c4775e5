// `payments balance` as a child process against the started server: a line per currency with what is
// available and what is pending, one JSON object per currency with --json, and a line that says so when the
// merchant has no balance yet; `payments payouts list` likewise.
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

  it("payouts list: a line per payout, newest first, and one JSON object each with --json", async () => {
    const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
      callApi(baseUrl, path, { ...request, token: tokens.ledger });
    const env = { apiUrl: baseUrl, apiKey: tokens.ledger };
    const none = await runCliAsync(["payouts", "list"], env);
    expect([none.code, none.stdout]).toEqual([0, "No payouts yet.\n"]);
    expect((await api("/api/test-helpers/balance/release", { method: "POST" })).status).toBe(200);
    const account = await api("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Ledger GmbH", iban: "GB33 BUKB 2020 1555 5555 55" },
    });
    expect(account.status).toBe(200);
    const first = await api("/api/payouts", { json: { currency: "EUR", amount: "1.00" } });
    const second = await api("/api/payouts", { json: { currency: "EUR" } });
    expect([first.status, second.status]).toEqual([201, 201]);
    const secondId = (second.body as { data: { id: number } }).data.id;
    // On a loaded machine the 1.00 can fail back before the second payout is made, which then pays 9.41.
    const secondAmount = (second.body as { data: { amount: string } }).data.amount;
    expect(["8.41", "9.41"]).toContain(secondAmount);
    // The closed-account test IBAN: the bank refuses both. The test helper moves each now, as the simulated
    // bank would (which, where this server runs a worker, may have done it first: a 409 then).
    for (const payout of [first, second]) {
      const id = (payout.body as { data: { id: number } }).data.id;
      const settled = await api(`/api/test-helpers/payouts/${id}/settle`, { json: {} });
      expect([200, 409]).toContain(settled.status);
    }
    const statuses = ((await api("/api/payouts")).body as { data: Array<{ status: string }> }).data;
    expect(statuses.map((payout) => payout.status)).toEqual(["failed", "failed"]);

    const printed = await runCliAsync(["payouts", "list"], env);
    expect(printed.code).toBe(0);
    const lines = printed.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\S+Z  ${secondId}  failed      ${secondAmount.replace(".", "\\.")} EUR  arrives \\d{4}-\\d{2}-\\d{2}  to ••••5555  The bank account is closed\\.$`,
      ),
    );
    expect(lines[1]).toMatch(
      /^\S+Z  \d+  failed      1\.00 EUR  arrives \S+  to ••••5555  The bank account is closed\.$/,
    );
    const json = await runCliAsync(["payouts", "list", "--json", "--limit", "1"], env);
    expect(JSON.parse(json.stdout)).toMatchObject({
      type: "payout",
      id: secondId,
      amount: secondAmount,
      currency: "EUR",
      status: "failed",
      failure_reason: "The bank account is closed.",
    });
  });
});
