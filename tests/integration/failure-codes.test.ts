// Why a payment failed, outside the dashboard (DESIGN.md, "Why it failed"): each way a payment fails gives its
// failure_code and failure_reason on the API's payment, in the payment.failed webhook and in the CLI's lines.
// A server of this file's own: nothing settles by itself (PAYMENTS_AUTO_SETTLE_MS=0) and a payment pending
// 4 s expires, so on PostgreSQL it has a database of its own.
import { describe, expect, it } from "vitest";
import { FULL_PAYMENT_FIELDS, callApi } from "../support/api-client";
import { CARDS, card, newClientAddress, paymentWithCheckout, postCheckout } from "../support/checkout-client";
import { runCli, startCli } from "../support/cli-process";
import { startManualSettlementServer } from "../support/manual-settlement-server";
import type { SeedData, TestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

let server: TestServer;
let data: SeedData;
const receiver = new WebhookReceiver();
startManualSettlementServer("failure_codes", 53, receiver, (started) => {
  server = started;
  data = started.data;
});

// The merchant with a webhook endpoint at /hooks.
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(server.baseUrl, path, { ...request, token: data.tokens.hooks });
const retrieve = async (id: number) =>
  ((await api(`/api/payments/${id}`)).body as { data: Record<string, unknown> }).data;
const CUSTOMER = { customer_id: "cus_why" };

/** Pays at the payment's checkout page with a card, from an address of its own. */
async function paidWith(number: string): Promise<number> {
  const { id, checkoutUrl } = await paymentWithCheckout(server.baseUrl, data.tokens.hooks, CUSTOMER);
  const answer = await postCheckout(server.baseUrl, checkoutUrl, "attempts", card(number));
  expect(answer.body.status).toBe("failed");
  return id;
}

async function created(): Promise<number> {
  const response = await api("/api/payments", { json: { amount: "12.50", ...CUSTOMER } });
  expect(response.status).toBe(201);
  return Number(response.headers.get("location")!.split("/").at(-1));
}

describe("a failed payment says why: the API, the webhook and the CLI", () => {
  it.each([
    ["the declined card", "card_declined", "Your card was declined.", () => paidWith(CARDS.declined)],
    [
      "the insufficient-funds card",
      "insufficient_funds",
      "Your card has insufficient funds.",
      () => paidWith(CARDS.insufficientFunds),
    ],
    ["the expired card", "expired_card", "Your card has expired.", () => paidWith(CARDS.expired)],
    [
      "a failed authentication",
      "authentication_failed",
      "The payer failed authentication.",
      async () => {
        const { id, checkoutUrl } = await paymentWithCheckout(server.baseUrl, data.tokens.hooks, CUSTOMER);
        const ip = newClientAddress();
        await postCheckout(server.baseUrl, checkoutUrl, "attempts", card(CARDS.authentication), { ip });
        const done = await postCheckout(
          server.baseUrl,
          checkoutUrl,
          "authentication",
          { result: "fail" },
          { ip },
        );
        expect(done.body.status).toBe("failed");
        return id;
      },
    ],
    [
      "a cancel",
      "canceled",
      "Canceled by the merchant.",
      async () => {
        const id = await created();
        const canceled = await api(`/api/payments/${id}/cancel`, { method: "POST" });
        // The cancel's answer is the payment as retrieved.
        expect((canceled.body as { data: unknown }).data).toEqual(await retrieve(id));
        return id;
      },
    ],
    [
      "the test helper",
      "processor_declined",
      "Failed by the test helper.",
      async () => {
        const id = await created();
        const settled = await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome: "failed" } });
        expect((settled.body as { data: unknown }).data).toEqual(await retrieve(id));
        return id;
      },
    ],
    [
      "an expiry",
      "expired",
      "Expired: still pending 4 seconds after it was created.",
      async () => {
        const id = await created();
        await expect.poll(async () => (await retrieve(id)).status, { timeout: 30_000 }).toBe("failed");
        return id;
      },
    ],
  ])("%s: failure_code %s", async (_name, code, reason, fail) => {
    const id = await fail();

    const payment = await retrieve(id);
    expect(payment).toMatchObject({
      status: "failed",
      customer_id: "cus_why",
      failure_code: code,
      failure_reason: reason,
    });
    expect(Object.keys(payment)).toEqual(FULL_PAYMENT_FIELDS);

    // The webhook's data is the payment as retrieved, less what refunds took (an event does not carry it).
    const hooks = await receiver.waitFor("/hooks", (all) =>
      all.some((hook) => hook.payload.event === "payment.failed" && hook.payload.data.id === id),
    );
    const failed = hooks.find(
      (hook) => hook.payload.event === "payment.failed" && hook.payload.data.id === id,
    )!;
    const { amount_refunded, amount_refundable, ...resource } = payment;
    expect([amount_refunded, amount_refundable]).toEqual(["0.00", "0.00"]);
    expect(failed.verified).toBe(true);
    expect(failed.payload.data).toEqual(resource);
    // Until it failed, nothing said why.
    const pending = hooks.find(
      (hook) => hook.payload.event === "payment.pending" && hook.payload.data.id === id,
    )!;
    expect(pending.payload.data).toMatchObject({
      customer_id: "cus_why",
      failure_code: null,
      failure_reason: null,
    });

    // The CLI, as a developer runs it.
    const env = { apiUrl: server.baseUrl, apiKey: data.tokens.hooks };
    const listed = runCli(["events", "list", "--payment", String(id), "--type", "payment.failed"], env);
    expect([listed.code, listed.stderr]).toEqual([0, ""]);
    expect(listed.stdout).toMatch(
      new RegExp(`payment\\.failed +${id} 12\\.50 USD \\(${code}: ${reason.replace(/[.]/g, "\\.")}\\)\\n$`),
    );
    const json = runCli(
      ["events", "list", "--payment", String(id), "--type", "payment.failed", "--json"],
      env,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ data: { failure_code: code, failure_reason: reason } });
  });

  it("a payment that did not fail says nothing: pending and completed have both null", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(server.baseUrl, data.tokens.hooks, CUSTOMER);
    expect(await retrieve(id)).toMatchObject({ status: "pending", failure_code: null, failure_reason: null });
    await postCheckout(server.baseUrl, checkoutUrl, "attempts", card(CARDS.success));
    expect(await retrieve(id)).toMatchObject({
      status: "completed",
      failure_code: null,
      failure_reason: null,
    });
    const hooks = await receiver.waitFor("/hooks", (all) =>
      all.some((hook) => hook.payload.event === "payment.completed" && hook.payload.data.id === id),
    );
    const completed = hooks.find(
      (hook) => hook.payload.event === "payment.completed" && hook.payload.data.id === id,
    );
    expect(completed!.payload.data).toMatchObject({ failure_code: null, failure_reason: null });
  });

  it("the CLI's trigger says why the payment it failed or canceled failed", () => {
    const env = { apiUrl: server.baseUrl, apiKey: data.tokens.hooks };
    const failed = runCli(["trigger", "payment.failed"], env);
    expect([failed.code, failed.stderr]).toEqual([0, ""]);
    expect(failed.stdout).toMatch(
      /payment \d+ failed \(processor_declined: Failed by the test helper\.\)\n$/,
    );
    const canceled = runCli(["trigger", "payment.canceled"], env);
    expect(canceled.stdout).toMatch(
      /payment \d+ canceled, failed \(canceled: Canceled by the merchant\.\)\n$/,
    );
  });

  it("the CLI's listen says why on a payment.failed event's line", async () => {
    const env = { apiUrl: server.baseUrl, apiKey: data.tokens.hooks };
    const forwardTo = `http://127.0.0.1:${server.env.TEST_RECEIVER_PORT}/listen`;
    const listening = startCli(["listen", "--forward-to", forwardTo, "--from-now", "--json"], env);
    try {
      await listening.waitForLine((line) => line.type === "connected");
      const id = await created();
      await api(`/api/payments/${id}/cancel`, { method: "POST" });
      await listening.waitForLine((line) => line.event === "payment.failed");
      const lines = listening.lines().filter((line) => line.type === "event");
      expect(lines.map(({ id: _id, ...line }) => line)).toEqual([
        { type: "event", event: "payment.pending" },
        {
          type: "event",
          event: "payment.failed",
          failure_code: "canceled",
          failure_reason: "Canceled by the merchant.",
        },
      ]);
    } finally {
      await listening.stop();
    }
  });
});
