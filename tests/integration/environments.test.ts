// Live and sandboxes (DESIGN.md, "Live and sandboxes"), over real HTTP on either database: keys say their
// environment and work only there; live takes no payment before a processor and has no test helpers; an account
// key makes, lists and deletes sandboxes, each apart from the others, and nothing else.
import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens, sandboxer } = inject("data");

const payment = { amount: "12.50", currency: "EUR" };

async function makeSandbox(token: string, name: string) {
  const made = await callApi(baseUrl, "/api/sandboxes", { token, json: { name } });
  expect(made.status, made.text).toBe(201);
  return (made.body as { data: { id: number; name: string; token: string } }).data;
}

describe("keys by environment", () => {
  it("say where they work in their prefix", () => {
    expect(tokens.api).toMatch(/^pay_test_[0-9A-Za-z]{49}$/);
    expect(tokens.live).toMatch(/^pay_live_[0-9A-Za-z]{49}$/);
    expect(tokens.account).toMatch(/^pay_acct_[0-9A-Za-z]{49}$/);
  });

  it("live refuses payments and payment links with a 409 until a processor is connected, and writes nothing", async () => {
    for (const path of ["/api/payments", "/api/payment-links"]) {
      const refused = await callApi(baseUrl, path, { token: tokens.live, json: payment });
      expect(refused.status, path).toBe(409);
      expect(refused.body).toEqual({
        message: "Connect a processor in Settings → Processor before taking live payments.",
      });
    }
    expect(await paymentTotal(baseUrl, tokens.live)).toBe(0);
  });

  it("live sees none of the first sandbox's payments, and has no test helpers (404)", async () => {
    const made = await callApi(baseUrl, "/api/payments", { token: tokens.api, json: payment });
    expect(made.status).toBe(201);
    const id = Number(made.headers.get("location")!.split("/").pop());
    expect((await callApi(baseUrl, `/api/payments/${id}`, { token: tokens.live })).status).toBe(403);
    const helper = await callApi(baseUrl, `/api/test-helpers/payments/${id}/settle`, {
      token: tokens.live,
      json: { outcome: "completed" },
    });
    expect(helper.status).toBe(404);
    expect((await callApi(baseUrl, `/api/payments/${id}`, { token: tokens.api })).body).toMatchObject({
      data: { status: "pending" },
    });
  });
});

describe("the Sandboxes API", () => {
  it("makes a sandbox with its own test key, apart from the first sandbox and live, and deletes it with its data", async () => {
    const testBefore = await paymentTotal(baseUrl, tokens.api);
    const sandbox = await makeSandbox(tokens.account, `ci-${Date.now()}`);
    expect(sandbox.token).toMatch(/^pay_test_/);

    const made = await callApi(baseUrl, "/api/payments", { token: sandbox.token, json: payment });
    expect(made.status).toBe(201);
    const id = Number(made.headers.get("location")!.split("/").pop());
    expect(await paymentTotal(baseUrl, sandbox.token)).toBe(1);
    // Neither the first sandbox nor live sees it, and it sees nothing of theirs.
    for (const token of [tokens.api, tokens.live])
      expect((await callApi(baseUrl, `/api/payments/${id}`, { token })).status).toBe(403);
    expect(await paymentTotal(baseUrl, tokens.api)).toBe(testBefore);

    const listed = await callApi(baseUrl, "/api/sandboxes", { token: tokens.account });
    expect(listed.status).toBe(200);
    const names = (listed.body as { data: Array<{ id: number; name: string }> }).data;
    expect(names[0]!.name).toBe("Test");
    expect(names).toContainEqual(expect.objectContaining({ id: sandbox.id, name: sandbox.name }));

    const deleted = await callApi(baseUrl, `/api/sandboxes/${sandbox.id}`, {
      method: "DELETE",
      token: tokens.account,
    });
    expect(deleted.status).toBe(204);
    expect((await callApi(baseUrl, "/api/payments", { token: sandbox.token })).status).toBe(401);
    expect(await paymentTotal(baseUrl, tokens.api)).toBe(testBefore);
    const again = await callApi(baseUrl, `/api/sandboxes/${sandbox.id}`, {
      method: "DELETE",
      token: tokens.account,
    });
    expect(again.status).toBe(404);
  });

  it("serves only account keys, and an account key serves nothing else (403)", async () => {
    for (const token of [tokens.api, tokens.live, tokens.read])
      expect((await callApi(baseUrl, "/api/sandboxes", { token })).status).toBe(403);
    expect((await callApi(baseUrl, "/api/payments", { token: tokens.account })).status).toBe(403);
    const refused = await callApi(baseUrl, "/api/payments", { token: tokens.account, json: payment });
    expect(refused.status).toBe(403);
  });

  it("does not let another account delete a sandbox (404), nor delete the first sandbox (409)", async () => {
    const sandbox = await makeSandbox(tokens.account, `mine-${Date.now()}`);
    const foreign = await callApi(baseUrl, `/api/sandboxes/${sandbox.id}`, {
      method: "DELETE",
      token: tokens.otherAccount,
    });
    expect(foreign.status).toBe(404);
    expect((await callApi(baseUrl, "/api/payments", { token: sandbox.token })).status).toBe(200);
    const listed = await callApi(baseUrl, "/api/sandboxes", { token: tokens.account });
    const first = (listed.body as { data: Array<{ id: number }> }).data[0]!;
    const kept = await callApi(baseUrl, `/api/sandboxes/${first.id}`, {
      method: "DELETE",
      token: tokens.account,
    });
    expect(kept.status).toBe(409);
    for (const path of [`/api/sandboxes/${sandbox.id}x`, "/api/sandboxes/999999999"])
      expect((await callApi(baseUrl, path, { method: "DELETE", token: tokens.account })).status).toBe(404);
    await callApi(baseUrl, `/api/sandboxes/${sandbox.id}`, { method: "DELETE", token: tokens.account });
  });

  it("refuses a missing, long or taken name and one past the account's limit with a 422, making nothing", async () => {
    const count = async () =>
      ((await callApi(baseUrl, "/api/sandboxes", { token: tokens.sandboxer })).body as { data: unknown[] })
        .data.length;
    expect(sandboxer.merchant_id).toBeGreaterThan(0);
    const before = await count();
    for (const [body, field] of [
      [{}, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "Test" }, "name"],
      [{ name: 12 }, "name"],
    ] as const) {
      const refused = await callApi(baseUrl, "/api/sandboxes", { token: tokens.sandboxer, json: body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((refused.body as { errors: object }).errors)).toEqual([field]);
    }
    expect(await count()).toBe(before);
    // The servers allow 4 (SANDBOXES_PER_ACCOUNT in tests), "Test" included.
    for (let index = before; index < 4; index++) await makeSandbox(tokens.sandboxer, `fill-${index}`);
    const over = await callApi(baseUrl, "/api/sandboxes", {
      token: tokens.sandboxer,
      json: { name: "fifth" },
    });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      errors: { name: ["An account has at most 4 sandboxes; delete one first."] },
    });
    expect(await count()).toBe(4);
  });
});
