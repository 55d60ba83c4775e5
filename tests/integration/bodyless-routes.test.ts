// Routes that take no fields (cancel, rotate-secret, resend, DELETE) still refuse a body that is not a JSON
// object with a 400, and change nothing: they used to cancel, rotate, resend and delete whatever was sent.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi, type ApiResponse } from "../support/api-client";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
/** On PostgreSQL the shared server runs no worker: the inbox's delivery needs one. */
let worker: WorkerProcess | undefined;
const { tokens } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });

type Endpoint = { id: number; secret: string };
let endpoint: Endpoint;
let paymentId: number;
let eventId: string;
let deliveryId: number;

beforeAll(async () => {
  // An inbox: its deliveries need no network, and the test reads them back.
  const created = await api("/api/webhook-endpoints", {
    json: { kind: "inbox", event_types: ["payment.pending"] },
  });
  expect(created.status).toBe(201);
  endpoint = (created.body as { data: Endpoint }).data;
  const payment = await api("/api/payments", { json: { amount: "3.00" } });
  paymentId = Number(payment.headers.get("location")!.split("/").at(-1));
  const events = await api(`/api/events?payment_id=${paymentId}`);
  eventId = (events.body as { data: Array<{ id: string }> }).data[0]!.id;
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
  // Delivered once, so a resend would show as a second attempt.
  const deadline = Date.now() + 20_000;
  while (((await deliveriesOf()) as { data: Array<{ status: string }> }).data[0]?.status !== "succeeded") {
    if (Date.now() > deadline) throw new Error("the inbox's delivery did not succeed");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  deliveryId = ((await deliveriesOf()) as { data: Array<{ id: number }> }).data[0]!.id;
});
afterAll(() => worker?.kill("SIGTERM"));

const deliveriesOf = async () => (await api(`/api/webhook-endpoints/${endpoint.id}/deliveries`)).body;

/** Whether a signature made with the endpoint's first secret is still its current one (not rotated). */
async function signsWithFirstSecret(): Promise<boolean> {
  const timestamp = new Date();
  const body = '{"event":"payment.pending","data":{}}';
  const signature = new Webhook(endpoint.secret).sign("msg_bodyless", timestamp, body);
  const verdict = await api("/api/webhooks/verify", {
    json: {
      endpoint_id: endpoint.id,
      body,
      headers: {
        "webhook-id": "msg_bodyless",
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
      },
    },
  });
  return (verdict.body as { valid: boolean }).valid;
}

const badBodies: Array<[string, string, string]> = [
  ["malformed JSON", '{"reason":', "The request body is not valid JSON."],
  ["an array", "[]", "The request body must be a JSON object."],
  ["a NUL byte", '{"a":1}\u0000', "The request body is not valid JSON."],
  ["a string", '"cancel"', "The request body must be a JSON object."],
];

describe.each(badBodies)("a body with %s", (_name, raw, message) => {
  const refused = (response: ApiResponse) =>
    expect([response.status, response.body]).toEqual([400, { message }]);

  it("on POST /api/payments/{id}/cancel: 400, the payment is not canceled", async () => {
    refused(await api(`/api/payments/${paymentId}/cancel`, { method: "POST", raw }));
    // 3.00 is outside the simulator's failing range: only a cancel could fail it (the settler may complete it).
    const payment = (await api(`/api/payments/${paymentId}`)).body as { data: { status: string } };
    expect(payment.data.status).not.toBe("failed");
  });

  it("on POST /api/webhook-endpoints/{id}/rotate-secret: 400, the secret stays", async () => {
    refused(await api(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST", raw }));
    expect(await signsWithFirstSecret()).toBe(true);
  });

  it("on POST /api/events/{id}/resend and /api/webhook-deliveries/{id}/resend: 400, nothing queued", async () => {
    const before = await deliveriesOf();
    refused(await api(`/api/events/${eventId}/resend`, { method: "POST", raw }));
    refused(await api(`/api/webhook-deliveries/${deliveryId}/resend`, { method: "POST", raw }));
    expect(await deliveriesOf()).toEqual(before);
  });

  it("on DELETE /api/webhook-endpoints/{id}: 400, the endpoint stays", async () => {
    refused(await api(`/api/webhook-endpoints/${endpoint.id}`, { method: "DELETE", raw }));
    expect((await api(`/api/webhook-endpoints/${endpoint.id}`)).status).toBe(200);
  });
});

describe("the same routes with no body, or {}", () => {
  it("rotate-secret and DELETE still work", async () => {
    expect(
      (await api(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST", raw: "{}" }))
        .status,
    ).toBe(200);
    expect((await api(`/api/webhook-endpoints/${endpoint.id}`, { method: "DELETE" })).status).toBe(204);
  });
});
