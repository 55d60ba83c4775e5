// Dispute events reach an inbox endpoint as payment events do (DESIGN.md, "Disputes": the same outbox, signing
// and retries): an inbox subscribed to the five dispute events captures each of a dispute that opens and is
// decided, verified with the official library against the endpoint's secret.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DISPUTE_EVENT_TYPES } from "@/lib/disputes/schemas";
import type { InboxCapture } from "@/lib/webhooks/inbox";
import { callApi } from "../support/api-client";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const serverEnv = inject("serverEnv");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: tokens.api });
/** On PostgreSQL the shared server runs no worker: deliveries need one of their own. */
let worker: WorkerProcess | undefined;
let inbox: { id: number; secret: string };

beforeAll(async () => {
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
  const created = await api("/api/webhook-endpoints", {
    json: { kind: "inbox", event_types: [...DISPUTE_EVENT_TYPES] },
  });
  expect(created.status, created.text).toBe(201);
  inbox = (created.body as { data: { id: number; secret: string } }).data;
});
afterAll(async () => {
  if (inbox) await api(`/api/webhook-endpoints/${inbox.id}`, { method: "DELETE" });
  await worker?.kill("SIGTERM");
});

describe("an inbox subscribed to dispute events", () => {
  it("captures every event of a dispute that opens and is lost, each signed", async () => {
    const created = await api("/api/payments", { json: { amount: "30.00" } });
    expect(created.status, created.text).toBe(201);
    const paymentId = Number(created.headers.get("location")!.split("/").at(-1));
    // The shared server may have settled it by itself already: either way it is completed.
    await api(`/api/test-helpers/payments/${paymentId}/settle`, { json: { outcome: "completed" } });
    const opened = await api(`/api/test-helpers/payments/${paymentId}/dispute`, { json: {} });
    expect(opened.status, opened.text).toBe(201);
    const disputeId = (opened.body as { data: { id: number } }).data.id;
    const closed = await api(`/api/disputes/${disputeId}/close`, { method: "POST" });
    expect(closed.status, closed.text).toBe(200);

    const mine = (capture: InboxCapture) =>
      (JSON.parse(capture.body) as { data: { id: number } }).data.id === disputeId;
    let captured: InboxCapture[] = [];
    await expect
      .poll(
        async () => {
          const listed = await api(`/api/webhook-endpoints/${inbox.id}/inbox?perPage=100`);
          captured = (listed.body as { data: InboxCapture[] }).data.filter(mine);
          return captured.map((capture) => (JSON.parse(capture.body) as { event: string }).event).sort();
        },
        { timeout: 45_000, interval: 250 },
      )
      .toEqual(["dispute.closed", "dispute.created", "dispute.funds_withdrawn"]);
    for (const capture of captured) {
      expect(capture.verification).toMatchObject({ valid: true, code: null });
      expect(() => new Webhook(inbox.secret).verify(capture.body, capture.headers)).not.toThrow();
    }
  });
});
