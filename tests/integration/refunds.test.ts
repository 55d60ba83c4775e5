// Refunds, cancellation and expiry over real HTTP (DESIGN.md, "Refunds and cancellation"). A server of this
// file's own, with the worker inside on either database: nothing settles by itself (PAYMENTS_AUTO_SETTLE_MS=0,
// the test helpers decide), and a payment pending 4 s expires, so on PostgreSQL it has a database of its own
// (its settler would expire the other suites' pending payments).
import { describe, expect, it } from "vitest";
import { callApi, type ApiResponse } from "../support/api-client";
import { startManualSettlementServer } from "../support/manual-settlement-server";
import type { SeedData, TestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

let server: TestServer;
let data: SeedData;
const receiver = new WebhookReceiver();
startManualSettlementServer("refunds", 17, receiver, (started) => {
  server = started;
  data = started.data;
});

const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(server.baseUrl, path, { ...request, token: request.token ?? data.tokens.api });
const cents = (money: string) => BigInt(money.replace(".", ""));
type Refund = {
  id: number;
  amount: string;
  status: string;
  failure_reason: string | null;
  created_at: string;
};
type Payment = {
  status: string;
  amount_refunded: string;
  amount_refundable: string;
  failure_reason?: string;
};

async function payment(
  amount: number | string,
  outcome: "completed" | "failed" | null = "completed",
  token?: string,
) {
  const created = await api("/api/payments", { json: { amount }, token });
  expect(created.status).toBe(201);
  const id = Number(created.headers.get("location")!.split("/").at(-1));
  if (outcome) {
    const settled = await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome }, token });
    expect(settled.status).toBe(200);
  }
  return id;
}
const refund = (paymentId: number, json: unknown = {}, headers?: Record<string, string>) =>
  api(`/api/payments/${paymentId}/refunds`, { json, headers });
const retrieve = async (paymentId: number) =>
  ((await api(`/api/payments/${paymentId}`)).body as { data: Payment }).data;
const refundsOf = async (paymentId: number) =>
  ((await api(`/api/payments/${paymentId}/refunds?perPage=100`)).body as { data: Refund[] }).data;
const errorsOf = (response: ApiResponse) => (response.body as { errors: Record<string, string[]> }).errors;

describe("refunds", () => {
  it("refunds part of a payment, then the rest, and says what is left", async () => {
    const id = await payment("10.00");
    const first = await refund(id, { amount: 4, reason: "requested_by_customer", external_id: "ret_1" });
    expect(first.status).toBe(201);
    const created = (first.body as { data: Refund }).data;
    expect(first.body).toEqual({
      message: "Refund created successfully",
      data: {
        id: created.id,
        payment_id: id,
        amount: "4.00",
        currency: "USD",
        status: "pending",
        reason: "requested_by_customer",
        external_id: "ret_1",
        failure_reason: null,
        created_at: created.created_at,
        settled_at: null,
      },
    });
    expect(first.headers.get("location")).toBe(`/api/refunds/${created.id}`);
    expect(await retrieve(id)).toMatchObject({
      status: "completed",
      amount_refunded: "0.00",
      amount_refundable: "6.00",
    });

    const rest = await refund(id);
    expect(rest.status).toBe(201);
    expect((rest.body as { data: Refund }).data.amount).toBe("6.00");
    for (const each of await refundsOf(id))
      expect(
        (await api(`/api/test-helpers/refunds/${each.id}/settle`, { json: { outcome: "succeeded" } })).status,
      ).toBe(200);
    expect(await retrieve(id)).toMatchObject({
      status: "completed",
      amount_refunded: "10.00",
      amount_refundable: "0.00",
    });
    expect((await refundsOf(id)).map((each) => [each.amount, each.status])).toEqual([
      ["6.00", "succeeded"],
      ["4.00", "succeeded"],
    ]);
    const shown = await api(`/api/refunds/${created.id}`);
    expect((shown.body as { data: Refund }).data).toMatchObject({ status: "succeeded", amount: "4.00" });
    // Nothing left: a refund with no amount, or any amount, says so on `payment`.
    for (const body of [{}, { amount: "1.00" }])
      expect(errorsOf(await refund(id, body))).toEqual({
        payment: ["This payment has nothing left to refund."],
      });
  });

  it("refuses more than is refundable, naming the maximum, and writes nothing", async () => {
    const id = await payment("10.00");
    expect((await refund(id, { amount: 3 })).status).toBe(201);
    const over = await refund(id, { amount: "7.01" });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({
      message: "The given data was invalid.",
      errors: { amount: ["The amount field must not be greater than 7.00."] },
    });
    expect(await refundsOf(id)).toHaveLength(1);
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ amount: 0 }, "amount", "The amount field must be greater than 0."],
    [{ amount: -1 }, "amount", "The amount field must be greater than 0."],
    [{ amount: "-0.50" }, "amount", "The amount field must be greater than 0."],
    [{ amount: "+1.00" }, "amount", "The amount field must be a number."],
    [{ amount: "1.001" }, "amount", "The amount field must have at most 2 decimal places."],
    [{ amount: "ten" }, "amount", "The amount field must be a number."],
    ...[{ reason: "bored" }, { reason: "Duplicate" }, { reason: "" }, { reason: 7 }].map(
      (body): [Record<string, unknown>, string, string] => [
        body,
        "reason",
        "The selected reason is invalid. It must be one of: duplicate, fraudulent, requested_by_customer, other.",
      ],
    ),
    [
      { external_id: "x".repeat(256) },
      "external_id",
      "The external id field must not be greater than 255 characters.",
    ],
  ])("bad input %j: 422 on %s, nothing written", async (body, field, message) => {
    const id = await payment("5.00");
    const response = await refund(id, body);
    expect(response.status).toBe(422);
    expect(errorsOf(response)[field]).toEqual([message]);
    expect(await refundsOf(id)).toHaveLength(0);
  });

  it("refuses a pending or failed payment on `payment`", async () => {
    for (const outcome of [null, "failed"] as const) {
      const id = await payment("5.00", outcome);
      const response = await refund(id, { amount: 1 });
      expect(response.status).toBe(422);
      expect(errorsOf(response)).toEqual({ payment: ["Only a completed payment can be refunded."] });
      expect(await refundsOf(id)).toHaveLength(0);
    }
  });

  it("20 concurrent refunds of 1.00 on a 10.00 payment: exactly 10 succeed, the sum never passes 10.00", async () => {
    const id = await payment("10.00");
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(id, { amount: "1.00" })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(10);
    const made = await refundsOf(id);
    expect(made).toHaveLength(10);
    expect(made.reduce((sum, each) => sum + cents(each.amount), 0n)).toBe(1000n);
    expect(await retrieve(id)).toMatchObject({ amount_refundable: "0.00" });
  });

  it("replays an Idempotency-Key, and answers 409 to the same key with another body", async () => {
    const id = await payment("10.00");
    const key = { "Idempotency-Key": `refund-${id}` };
    const first = await refund(id, { amount: 2 }, key);
    const again = await refund(id, { amount: 2 }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((again.body as { data: Refund }).data.id).toBe((first.body as { data: Refund }).data.id);
    const other = await refund(id, { amount: 3 }, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      message: "This Idempotency-Key was already used with a different request body.",
    });
    expect(await refundsOf(id)).toHaveLength(1);
  });

  it("a failed refund gives its amount back", async () => {
    const id = await payment("10.00");
    const made = (await refund(id, { amount: "9.99" })).body as { data: Refund };
    expect(await retrieve(id)).toMatchObject({ amount_refundable: "0.01" });
    const failed = await api(`/api/test-helpers/refunds/${made.data.id}/settle`, {
      json: { outcome: "failed" },
    });
    expect((failed.body as { data: Refund }).data).toMatchObject({
      status: "failed",
      failure_reason: "Failed by the test helper.",
    });
    expect(await retrieve(id)).toMatchObject({ amount_refunded: "0.00", amount_refundable: "10.00" });
    // Final: settled again, it is a 409.
    expect(
      (await api(`/api/test-helpers/refunds/${made.data.id}/settle`, { json: { outcome: "succeeded" } }))
        .status,
    ).toBe(409);
  });
});

describe("cancel and expiry", () => {
  it("10 concurrent cancels: one 200, nine 409, and one payment.failed", async () => {
    const id = await payment("12.00", null, data.tokens.hooks);
    const cancel = () => api(`/api/payments/${id}/cancel`, { method: "POST", token: data.tokens.hooks });
    const answers = await Promise.all(Array.from({ length: 10 }, cancel));
    const ok = answers.filter((answer) => answer.status === 200);
    expect(ok).toHaveLength(1);
    expect((ok[0]!.body as { data: Payment }).data).toMatchObject({ id, status: "failed" });
    for (const refused of answers.filter((answer) => answer.status !== 200))
      expect([refused.status, refused.body]).toEqual([
        409,
        { message: "Only a pending payment can be canceled." },
      ]);
    const failed = await receiver.waitFor("/hooks", (all) =>
      all.some((hook) => hook.payload.event === "payment.failed" && hook.payload.data.id === id),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(failed.length).toBeGreaterThan(0);
    const mine = receiver.on("/hooks").filter((hook) => hook.payload.data.id === id);
    expect(mine.map((hook) => hook.payload.event).sort()).toEqual(["payment.failed", "payment.pending"]);
    const events = await api(`/api/events?type=payment.failed&payment_id=${id}`, {
      token: data.tokens.hooks,
    });
    expect((events.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it("a payment pending longer than PAYMENTS_PENDING_EXPIRE_AFTER fails, saying why", async () => {
    const id = await payment("3.00", null);
    let current = await retrieve(id);
    for (let tries = 0; current.status === "pending" && tries < 60; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      current = await retrieve(id);
    }
    expect(current.status).toBe("failed");
    const events = await api(`/api/events?type=payment.failed&payment_id=${id}`);
    const [event] = (events.body as { data: { data: { status: string } }[] }).data;
    expect(event?.data.status).toBe("failed");
  });
});

describe("refund events", () => {
  it("refund.created and refund.succeeded are delivered signed, and verify with standardwebhooks", async () => {
    const id = await payment("20.00", "completed", data.tokens.hooks);
    const created = await api(`/api/payments/${id}/refunds`, {
      json: { amount: 5 },
      token: data.tokens.hooks,
    });
    const refundId = (created.body as { data: Refund }).data.id;
    await api(`/api/test-helpers/refunds/${refundId}/settle`, {
      json: { outcome: "succeeded" },
      token: data.tokens.hooks,
    });
    const ofRefund = (all: typeof receiver.received) =>
      all.filter((hook) => hook.payload.event.startsWith("refund.") && hook.payload.data.id === refundId);
    await receiver.waitFor("/hooks", (all) => ofRefund(all).length >= 2);
    // Both deliveries may be due at once and sent side by side: their arrival order is not promised.
    const hooks = ofRefund(receiver.on("/hooks")).sort((a, b) =>
      a.payload.event.localeCompare(b.payload.event),
    );
    expect(hooks.map((hook) => hook.payload.event)).toEqual(["refund.created", "refund.succeeded"]);
    expect(hooks.every((hook) => hook.verified)).toBe(true);
    expect(hooks[1]!.payload.data).toMatchObject({
      id: refundId,
      payment_id: id,
      amount: "5.00",
      status: "succeeded",
    });
    expect(Object.keys(hooks[1]!.payload.data)).toEqual([
      "id",
      "payment_id",
      "amount",
      "currency",
      "status",
      "reason",
      "external_id",
      "failure_reason",
      "created_at",
      "settled_at",
    ]);
  });
});

describe("isolation: another merchant's payment or refund", () => {
  it("is a 403 on every route, none is a 404, and nothing is written", async () => {
    const id = await payment("10.00");
    const made = (await refund(id, { amount: 1 })).body as { data: Refund };
    const other = { token: data.tokens.other };
    const routes: [string, Parameters<typeof callApi>[2]][] = [
      [`/api/payments/${id}/refunds`, { ...other, json: { amount: 1 } }],
      [`/api/payments/${id}/refunds`, other],
      [`/api/refunds/${made.data.id}`, other],
      [`/api/payments/${id}/cancel`, { ...other, method: "POST" }],
      [`/api/test-helpers/payments/${id}/settle`, { ...other, json: { outcome: "failed" } }],
      [`/api/test-helpers/refunds/${made.data.id}/settle`, { ...other, json: { outcome: "failed" } }],
    ];
    for (const [path, request] of routes) {
      const answer = await callApi(server.baseUrl, path, request);
      expect([path, answer.status, answer.body]).toEqual([
        path,
        403,
        { message: "This action is unauthorized." },
      ]);
      const missing = await callApi(server.baseUrl, path.replace(/\/\d+(\/|$)/, "/999999999$1"), request);
      expect([path, missing.status]).toEqual([path, 404]);
    }
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await retrieve(id)).toMatchObject({ status: "completed", amount_refundable: "9.00" });
    // A read-only token cannot refund or cancel.
    const readOnly = await api(`/api/payments/${id}/refunds`, {
      token: data.tokens.read,
      json: { amount: 1 },
    });
    expect(readOnly.status).toBe(403);
  });
});
