import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PAYMENT_EVENT_FIELDS, callApi } from "../support/api-client";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";
import { WebhookReceiver, type ReceivedWebhook } from "../support/webhook-receiver";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens, hooks, flaky } = inject("data");
const receiver = new WebhookReceiver();
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  receiver.expectSecret("/hooks", hooks.secret);
  receiver.expectSecret("/flaky", flaky.secret);
  await receiver.listen(Number(serverEnv.TEST_RECEIVER_PORT));
  // On PostgreSQL the server runs no worker: this suite brings one, as a deployment would.
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
});
afterAll(async () => {
  await worker?.kill("SIGTERM");
  await receiver.close();
});

async function createPayment(token: string, body: Record<string, unknown>): Promise<number> {
  const created = await callApi(baseUrl, "/api/payments", { token, json: body });
  expect(created.status).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}

const forPayment = (id: number) => (hooks: ReceivedWebhook[]) =>
  hooks.filter((hook) => hook.payload.data.id === id);

describe("payment events delivered to the merchant's endpoint, signed", () => {
  it("delivers payment.pending then payment.completed, each once, verified with standardwebhooks", async () => {
    const id = await createPayment(tokens.hooks, {
      amount: 10,
      external_id: "hook_ok",
      customer_id: "cus_9",
    });
    const delivered = await receiver.waitFor("/hooks", (all) => forPayment(id)(all).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const mine = forPayment(id)(receiver.on("/hooks"));
    expect(mine.map((hook) => hook.payload.event)).toEqual(["payment.pending", "payment.completed"]);
    expect(mine.every((hook) => hook.verified)).toBe(true);
    expect(new Set(mine.map((hook) => hook.id)).size).toBe(2);
    expect(mine[0]!.id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
    expect(mine[1]!.payload).toEqual({
      event: "payment.completed",
      data: {
        id,
        external_id: "hook_ok",
        type: "payment",
        status: "completed",
        amount: "10.00",
        currency: "USD",
        metadata: '{"customer_id":"cus_9"}',
        customer_id: "cus_9",
        created_at: mine[0]!.payload.data.created_at,
        checkout_url: null,
        payment_method: null,
        failure_code: null,
        failure_reason: null,
        // 2.9% of 10.00 and 0.30 (the default price).
        fee: "0.59",
        net: "9.41",
        processor: "simulator",
        processor_payment_id: null,
      },
    });
    expect(Object.keys(mine[0]!.payload.data)).toEqual(PAYMENT_EVENT_FIELDS);
    const pendingCheckoutUrl = mine[0]!.payload.data.checkout_url;
    expect(pendingCheckoutUrl).toMatch(/\/pay\/[0-9]+_[0-9A-Za-z]{43}$/);
    expect(delivered.length).toBeGreaterThanOrEqual(2);

    const fetched = await callApi(baseUrl, `/api/payments/${id}`, { token: tokens.hooks });
    expect(fetched.body).toMatchObject({ data: { status: "completed" } });
    // The pending event's data is built by the statement that creates the payment: the same resource (the
    // retrieve adds what refunds took, which an event's payment does not carry).
    const { amount_refunded, amount_refundable, ...data } = (
      fetched.body as { data: Record<string, unknown> }
    ).data;
    expect([amount_refunded, amount_refundable]).toEqual(["0.00", "10.00"]);
    expect(mine[0]!.payload).toEqual({
      event: "payment.pending",
      data: { ...data, status: "pending", checkout_url: pendingCheckoutUrl, fee: null, net: null },
    });
  });

  it("fails amounts from 2000.00 to 2999.99 on purpose: payment.failed, processor_declined", async () => {
    const id = await createPayment(tokens.hooks, { amount: "2500.00" });
    const mine = forPayment(id)(await receiver.waitFor("/hooks", (all) => forPayment(id)(all).length >= 2));
    expect(mine.map((hook) => hook.payload.event)).toEqual(["payment.pending", "payment.failed"]);
    expect(mine[1]!.payload.data).toMatchObject({
      status: "failed",
      amount: "2500.00",
      failure_code: "processor_declined",
      failure_reason:
        "Declined by the test processor: the amount is in the 2000.00–2999.99 test range, which always fails.",
    });
  });

  it("retries a receiver that answered 500, with the same webhook-id", async () => {
    receiver.script("/flaky", [500]);
    const id = await createPayment(tokens.flaky, { amount: 1 });
    const mine = forPayment(id)(
      await receiver.waitFor("/flaky", (all) => forPayment(id)(all).length >= 2, 30_000),
    );
    expect(mine).toHaveLength(2);
    expect(mine[0]!.id).toBe(mine[1]!.id);
    expect(mine.every((hook) => hook.verified)).toBe(true);
    // About 5 s between the attempts (±10% jitter).
    expect(mine[1]!.receivedAt - mine[0]!.receivedAt).toBeGreaterThan(4000);
  });
});
