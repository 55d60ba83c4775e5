import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi, DEFAULT_EVENT_TYPES, type ApiRequest } from "../support/api-client";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// When the platform disables an endpoint (here: it answered 410 Gone), the merchant's other enabled endpoints
// subscribed to webhook_endpoint.disabled are told, once, signed like any delivery.

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");
const receiver = new WebhookReceiver();
const receiverUrl = `http://127.0.0.1:${serverEnv.TEST_RECEIVER_PORT}`;
let worker: WorkerProcess | undefined;

type Endpoint = { id: number; url: string; enabled: boolean; secret: string; event_types: string[] };
type Event = { id: string; event: string; data: Record<string, unknown>; created_at: string };

const api = (path: string, request: ApiRequest = {}) =>
  callApi(baseUrl, path, { token: tokens.gone, ...request });

async function createEndpoint(path: string, eventTypes?: string[]): Promise<Endpoint> {
  const created = await api("/api/webhook-endpoints", {
    json: { url: `${receiverUrl}${path}`, ...(eventTypes ? { event_types: eventTypes } : {}) },
  });
  expect(created.status, created.text).toBe(201);
  const endpoint = (created.body as { data: Endpoint }).data;
  receiver.expectSecret(path, endpoint.secret);
  return endpoint;
}

beforeAll(async () => {
  await receiver.listen(Number(serverEnv.TEST_RECEIVER_PORT));
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
});
afterAll(async () => {
  await worker?.kill("SIGTERM");
  await receiver.close();
});

describe("webhook_endpoint.disabled", () => {
  it("reaches the other subscribed endpoints once when an endpoint answers 410, and the events API lists it", async () => {
    const gone = await createEndpoint("/gone");
    const operations = await createEndpoint("/operations", ["payment.pending", "webhook_endpoint.disabled"]);
    const quiet = await createEndpoint("/quiet");
    expect(gone.event_types).toEqual(DEFAULT_EVENT_TYPES);
    receiver.script("/gone", [410, 410, 410]);

    // Waiting for its payer (return_url), the payment sends one event only: under load the simulator's
    // payment.completed could otherwise be claimed beside payment.pending, before the 410 disables the endpoint.
    const created = await api("/api/payments", {
      json: { amount: 4, return_url: "https://example.com/return" },
    });
    expect(created.status).toBe(201);
    const told = await receiver.waitFor("/operations", (hooks) =>
      hooks.some((hook) => hook.payload.event === "webhook_endpoint.disabled"),
    );
    // Long enough for a second notice, were one to be sent (the completed event, a retry of the 410).
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const notices = receiver
      .on("/operations")
      .filter((hook) => hook.payload.event === "webhook_endpoint.disabled");
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(notice.verified).toBe(true);
    expect(notice.payload.data).toEqual({
      id: gone.id,
      kind: "url",
      url: gone.url,
      description: null,
      event_types: gone.event_types,
      enabled: false,
      created_at: expect.any(String) as string,
      disabled_reason: "The endpoint answered 410 Gone.",
    });
    expect(told.length).toBeGreaterThanOrEqual(2);
    expect(receiver.on("/gone")).toHaveLength(1);
    expect(receiver.on("/quiet").map((hook) => hook.payload.event)).not.toContain(
      "webhook_endpoint.disabled",
    );

    const shown = (await api(`/api/webhook-endpoints/${gone.id}`)).body as { data: Endpoint };
    expect(shown.data.enabled).toBe(false);

    const listed = await api("/api/events?type=webhook_endpoint.disabled");
    expect(listed.status).toBe(200);
    const events = (listed.body as { data: Event[] }).data;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: notice.id, event: "webhook_endpoint.disabled" });
    expect(events[0]!.data).toEqual(notice.payload.data);
    const detail = (await api(`/api/events/${notice.id}`)).body as {
      data: { deliveries: { endpoint_id: number; status: string }[] };
    };
    expect(detail.data.deliveries).toEqual([
      expect.objectContaining({ endpoint_id: operations.id, status: "succeeded" }),
    ]);
    expect(quiet.enabled).toBe(true);
  });

  it("is not sent when a person disables an endpoint", async () => {
    const endpoint = await createEndpoint("/paused");
    const disabled = await api(`/api/webhook-endpoints/${endpoint.id}`, {
      method: "PATCH",
      json: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    const notices = (await api("/api/events?type=webhook_endpoint.disabled")).body as { data: Event[] };
    expect(notices.data.map((event) => event.data.id)).not.toContain(endpoint.id);
  });
});
