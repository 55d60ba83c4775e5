// Inbox endpoints over real HTTP: created with the API, fed by the real worker, captures verified with the
// official library, fail on purpose with the retry captured under the same webhook-id, a chosen count never
// overspent by concurrent deliveries, a timeout, bad input refused with nothing written, and isolation.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { INBOX_CAPTURES_PER_MINUTE, type InboxCapture } from "@/lib/webhooks/inbox";
import { callApi } from "../support/api-client";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const serverEnv = inject("serverEnv");
/** On PostgreSQL the shared server runs no worker: deliveries need one of their own. */
let worker: WorkerProcess | undefined;

type Endpoint = {
  id: number;
  kind: string;
  url: string;
  secret: string;
  inbox_response: unknown;
};
type Capture = InboxCapture;

const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
let inbox: Endpoint;
const made: number[] = [];

async function createInbox(events = ["payment.pending", "payment.completed", "payment.failed"]) {
  const created = await api("/api/webhook-endpoints", { json: { kind: "inbox", event_types: events } });
  expect(created.status, created.text).toBe(201);
  const endpoint = (created.body as { data: Endpoint }).data;
  made.push(endpoint.id);
  return endpoint;
}
async function createPayment(amount = "12.50"): Promise<number> {
  const created = await api("/api/payments", {
    json: { amount, external_id: `inbox_${Date.now()}_${Math.random()}` },
  });
  expect(created.status, created.text).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}
async function captures(endpointId: number, query = ""): Promise<Capture[]> {
  const listed = await api(`/api/webhook-endpoints/${endpointId}/inbox${query}`);
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { data: Capture[] }).data;
}
/** Polls the inbox until `done` holds; a loaded CI machine gets wide margins. */
async function waitForCaptures(endpointId: number, done: (all: Capture[]) => boolean, ms = 45_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const all = await captures(endpointId, "?perPage=100");
    if (done(all)) return all;
    if (Date.now() > deadline) throw new Error(`Inbox ${endpointId} has ${JSON.stringify(all, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const about = (paymentId: number) => (capture: Capture) =>
  (JSON.parse(capture.body) as { data: { id: number } }).data.id === paymentId;

beforeAll(async () => {
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
  inbox = await createInbox();
});
afterAll(async () => {
  for (const id of made) await api(`/api/webhook-endpoints/${id}`, { method: "DELETE" });
  await worker?.kill("SIGTERM");
});

describe("an inbox endpoint", () => {
  it("is created with kind inbox, a secret and no url to dial", () => {
    expect(inbox).toMatchObject({ kind: "inbox", inbox_response: null });
    expect(inbox.url).toMatch(/^inbox:\/\/[0-9a-f]{16}$/);
    expect(inbox.secret).toMatch(/^whsec_/);
  });

  it("captures a delivery exactly as sent, verified with standardwebhooks", async () => {
    const paymentId = await createPayment();
    const [capture] = (await waitForCaptures(inbox.id, (all) => all.some(about(paymentId)))).filter(
      about(paymentId),
    );
    expect(capture).toMatchObject({
      attempt: 1,
      response_status: 200,
      body_truncated: false,
      verification: { valid: true, code: null },
    });
    expect(JSON.parse(capture!.body)).toMatchObject({ event: "payment.pending", data: { id: paymentId } });
    expect(capture!.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": capture!.event_id,
      "content-length": String(Buffer.byteLength(capture!.body)),
    });
    // A receiver holding the secret verifies the same bytes, and so does the signature debugger.
    expect(() => new Webhook(inbox.secret).verify(capture!.body, capture!.headers)).not.toThrow();
    const debugged = await api("/api/webhooks/verify", {
      json: { endpoint_id: inbox.id, headers: capture!.headers, body: capture!.body },
    });
    expect(debugged.body).toMatchObject({ valid: true, code: null });
    const event = await api(`/api/events/${capture!.event_id}`);
    expect(event.status).toBe(200);
  });

  it("answers 500 once on purpose, and captures the retry under the same webhook-id", async () => {
    // An inbox of its own, for completions only. The shared server settles payments by itself after 1.5 s,
    // so an earlier test's payment may be the one that gets the 500: whichever it is, exactly one does.
    const target = await createInbox(["payment.completed"]);
    const failing = await api(`/api/webhook-endpoints/${target.id}`, {
      method: "PATCH",
      json: { inbox_response: { status: 500, count: 1 } },
    });
    expect(failing.status, failing.text).toBe(200);
    expect((failing.body as { data: Endpoint }).data.inbox_response).toEqual({ status: 500, count: 1 });
    const paymentId = await createPayment();
    const settled = await api(`/api/test-helpers/payments/${paymentId}/settle`, {
      json: { outcome: "completed" },
    });
    // 409 when the server's own settler completed it first.
    expect([200, 409], settled.text).toContain(settled.status);
    const retried = (list: Capture[]) => {
      const failed = list.find((capture) => capture.response_status === 500);
      return failed && list.find((capture) => capture.event_id === failed.event_id && capture.attempt === 2);
    };
    const all = await waitForCaptures(target.id, (list) => Boolean(retried(list)));
    const first = all.find((capture) => capture.response_status === 500)!;
    const retry = retried(all)!;
    expect(all.filter((capture) => capture.response_status === 500)).toHaveLength(1);
    expect([first.attempt, retry.response_status]).toEqual([1, 200]);
    expect(first.body).toContain('"payment.completed"');
    expect(retry.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(retry.body).toBe(first.body);
    expect(retry.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
    // The count is spent: the inbox answers 200 again, and says so.
    const shown = await api(`/api/webhook-endpoints/${target.id}`);
    expect((shown.body as { data: Endpoint }).data.inbox_response).toBeNull();
    const deliveries = await api(`/api/webhook-endpoints/${target.id}/deliveries?perPage=100`);
    const delivery = (
      deliveries.body as { data: Array<{ event_id: string; status: string; attempts: number }> }
    ).data.find((each) => each.event_id === first.event_id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("never fails more deliveries than the chosen count, however many arrive at once", async () => {
    const target = await createInbox(["payment.pending"]);
    const patched = await api(`/api/webhook-endpoints/${target.id}`, {
      method: "PATCH",
      json: { inbox_response: { status: 503, count: 2 } },
    });
    expect(patched.status).toBe(200);
    const ids = await Promise.all(Array.from({ length: 6 }, () => createPayment()));
    const firsts = (await waitForCaptures(target.id, (all) => ids.every((id) => all.some(about(id))))).filter(
      (capture) => capture.attempt === 1 && ids.some((id) => about(id)(capture)),
    );
    expect(firsts.map((capture) => capture.response_status).sort()).toEqual([200, 200, 200, 200, 503, 503]);
  });

  it("can time out on purpose: nothing answered, the attempt logged as a timeout", async () => {
    const target = await createInbox(["payment.pending"]);
    await api(`/api/webhook-endpoints/${target.id}`, {
      method: "PATCH",
      json: { inbox_response: { timeout: true } },
    });
    const paymentId = await createPayment();
    const [capture] = await waitForCaptures(target.id, (all) => all.some(about(paymentId)));
    expect(capture).toMatchObject({ attempt: 1, response_status: null, verification: { valid: true } });
    // Until changed: still set after the delivery.
    const shown = await api(`/api/webhook-endpoints/${target.id}`);
    expect((shown.body as { data: Endpoint }).data.inbox_response).toEqual({ timeout: true, count: null });
    // Still pending: a timeout is retried on the schedule like any failure. The worker records the attempt
    // after the capture is written: it is waited for.
    const delivered = async () => {
      const deliveries = await api(`/api/webhook-endpoints/${target.id}/deliveries`);
      const [delivery] = (deliveries.body as { data: Array<{ status: string; attempts: number }> }).data;
      return { status: delivery!.status, attempted: delivery!.attempts >= 1 };
    };
    await expect
      .poll(delivered, { timeout: 30_000, interval: 250 })
      .toEqual({ status: "pending", attempted: true });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "captures a delivery it refuses for its rate, with its 429, so attempt 1 is never missing",
    async () => {
      const busy = await createInbox(["payment.pending"]);
      // This minute's budget already spent (on PostgreSQL the test reaches the database the server uses).
      const { db } = await import("../support/direct-db");
      const { sql } = await import("drizzle-orm");
      await db.execute(
        sql`update webhook_endpoints set inbox_window_started_at = now(), inbox_window_count = ${INBOX_CAPTURES_PER_MINUTE}
            where id = ${busy.id}`,
      );
      const paymentId = await createPayment();
      const [capture] = await waitForCaptures(busy.id, (all) => all.some(about(paymentId)));
      expect(capture).toMatchObject({ attempt: 1, response_status: 429, verification: { valid: true } });
      const deliveries = await api(`/api/webhook-endpoints/${busy.id}/deliveries`);
      const [delivery] = (deliveries.body as { data: Array<{ status: string }> }).data;
      expect(delivery!.status).toBe("pending");
    },
  );

  it("pages captures newest first", async () => {
    const quiet = await createInbox(["payment.failed"]);
    // 2,000.00 to 2,999.99 fail on purpose, so the server's own settler fails them too if it comes first.
    const ids = [
      await createPayment("2500.00"),
      await createPayment("2500.00"),
      await createPayment("2500.00"),
    ];
    for (const id of ids)
      await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome: "failed" } });
    const all = await waitForCaptures(quiet.id, (list) => list.length === 3);
    expect(all.map((capture) => capture.id)).toEqual(
      [...all.map((capture) => capture.id)].sort((a, b) => b - a),
    );
    const second = await api(`/api/webhook-endpoints/${quiet.id}/inbox?page=2&perPage=1`);
    expect(second.body).toMatchObject({
      data: [{ id: all[1]!.id }],
      meta: { total: 3, current_page: 2, last_page: 3 },
    });
  });
});

describe("bad input is refused, and nothing is written", () => {
  it.each([
    [{ kind: "ftp" }, "kind", "The selected kind is invalid."],
    [{ kind: "inbox", url: "https://example.com/hooks" }, "url", "An inbox has no url"],
    [{ kind: "url" }, "url", "The url field is required."],
    [{}, "url", "The url field is required."],
  ])("POST %j: 422 on %s", async (json, field, text) => {
    const before = (await api("/api/webhook-endpoints")).body as { data: unknown[] };
    const refused = await api("/api/webhook-endpoints", { json });
    expect(refused.status, refused.text).toBe(422);
    expect((refused.body as { errors: Record<string, string[]> }).errors[field]![0]).toContain(text);
    expect(((await api("/api/webhook-endpoints")).body as { data: unknown[] }).data).toHaveLength(
      before.data.length,
    );
  });

  it.each([
    [{ status: 99 }, "integer from 200 to 599"],
    [{ status: 700, count: 1 }, "integer from 200 to 599"],
    [{ status: "500" }, "integer from 200 to 599"],
    [{ status: 500.5 }, "integer from 200 to 599"],
    [{ status: 500, timeout: true }, "either a status or a timeout"],
    [{}, "either a status or a timeout"],
    [{ status: 500, count: 0 }, "integer from 1 to 1000"],
    [{ status: 500, count: 1.5 }, "integer from 1 to 1000"],
    [{ status: 500, retry: true }, "inbox_response field must be null"],
    [{ timeout: false }, "timeout field must be true"],
    ["500", "inbox_response field must be null"],
  ])("PATCH inbox_response %j: 422", async (value, text) => {
    const refused = await api(`/api/webhook-endpoints/${inbox.id}`, {
      method: "PATCH",
      json: { inbox_response: value, description: "must not be written" },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(
      (refused.body as { errors: { inbox_response: string[] } }).errors.inbox_response.join(" "),
    ).toContain(text);
    const shown = (await api(`/api/webhook-endpoints/${inbox.id}`)).body as {
      data: Endpoint & { description: string | null };
    };
    expect([shown.data.inbox_response, shown.data.description]).toEqual([null, null]);
  });

  it("refuses inbox settings on a URL endpoint, a url on an inbox, and an inbox list of a URL endpoint", async () => {
    const created = await api("/api/webhook-endpoints", { json: { url: "https://example.com/inbox-test" } });
    const plain = (created.body as { data: Endpoint }).data;
    made.push(plain.id);
    expect(plain.kind).toBe("url");
    expect(plain).not.toHaveProperty("inbox_response");
    const onUrl = await api(`/api/webhook-endpoints/${plain.id}`, {
      method: "PATCH",
      json: { inbox_response: { status: 500 } },
    });
    expect([onUrl.status, onUrl.body]).toMatchObject([
      422,
      { errors: { inbox_response: [expect.any(String)] } },
    ]);
    const onInbox = await api(`/api/webhook-endpoints/${inbox.id}`, {
      method: "PATCH",
      json: { url: "https://example.com/elsewhere" },
    });
    expect([onInbox.status, onInbox.body]).toMatchObject([422, { errors: { url: [expect.any(String)] } }]);
    const listed = await api(`/api/webhook-endpoints/${plain.id}/inbox`);
    expect([listed.status, listed.body]).toEqual([
      404,
      { message: "This endpoint is not an inbox: it sends to its URL." },
    ]);
    const badPage = await api(`/api/webhook-endpoints/${inbox.id}/inbox?perPage=0`);
    expect(badPage.status).toBe(422);
  });
});

describe("isolation", () => {
  it("another merchant can neither read an inbox nor set its answer", async () => {
    const read = await api(`/api/webhook-endpoints/${inbox.id}/inbox`, { token: tokens.other });
    expect(read.status).toBe(403);
    const patched = await api(`/api/webhook-endpoints/${inbox.id}`, {
      method: "PATCH",
      token: tokens.other,
      json: { inbox_response: { status: 500 } },
    });
    expect(patched.status).toBe(403);
    const readOnly = await api(`/api/webhook-endpoints/${inbox.id}/inbox`, { token: tokens.read });
    expect(readOnly.status).toBe(403);
    const shown = await api(`/api/webhook-endpoints/${inbox.id}`);
    expect((shown.body as { data: Endpoint }).data.inbox_response).toBeNull();
    expect(read.text + patched.text).not.toContain("whsec_");
  });
});
