// POST /api/webhooks/verify over real HTTP: each of DESIGN.md's codes, from a real delivery then altered
// (re-serialised body, old timestamp, rotated secret, another endpoint's secret, a missing header), 422s,
// 403 for another merchant's endpoint, and no secret in any answer.
import http from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { findFreePort } from "../support/free-port";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const serverEnv = inject("serverEnv");
/** On PostgreSQL the shared server runs no worker: deliveries need one of their own. */
let worker: WorkerProcess | undefined;
type Delivery = { body: string; headers: Record<string, string> };
const deliveries: Array<Delivery & { path: string }> = [];
const receiver = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString()));
  request.on("end", () => {
    const headers: Record<string, string> = {};
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"])
      headers[name] = String(request.headers[name]);
    deliveries.push({ path: request.url ?? "/", body, headers });
    response.end("ok");
  });
});
const receiverPort = findFreePort();
type Endpoint = { id: number; secret: string };
let endpoint: Endpoint;
let other: Endpoint;
let delivery: Delivery;

const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
const verify = async (body: unknown, token?: string) => api("/api/webhooks/verify", { json: body, token });
async function createEndpoint(path: string): Promise<Endpoint> {
  const created = await api("/api/webhook-endpoints", {
    json: { url: `http://127.0.0.1:${receiverPort}/${path}`, event_types: ["payment.pending"] },
  });
  expect(created.status).toBe(201);
  return (created.body as { data: Endpoint }).data;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", () => resolve()));
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
  endpoint = await createEndpoint("debugged");
  other = await createEndpoint("other");
  await api("/api/payments", { json: { amount: "8.00", external_id: `debugger_${Date.now()}` } });
  const deadline = Date.now() + 20_000;
  while (deliveries.length < 2 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const { body, headers } = deliveries.find((each) => each.path === "/debugged")!;
  delivery = { body, headers };
});
afterAll(async () => {
  for (const each of [endpoint, other])
    if (each) await api(`/api/webhook-endpoints/${each.id}`, { method: "DELETE" });
  receiver.close();
  await worker?.kill("SIGTERM");
});

const answer = async (body: unknown) => {
  const response = await verify(body);
  expect(response.status, response.text).toBe(200);
  expect(response.text).not.toContain("whsec_");
  return response.body as { valid: boolean; code: string | null; reason: string };
};

describe("POST /api/webhooks/verify", () => {
  it("says a real delivery verifies", async () => {
    expect(await answer({ endpoint_id: endpoint.id, ...delivery })).toEqual({
      valid: true,
      code: null,
      reason: "The signature verifies with this endpoint's current secret.",
    });
  });

  it("body_mismatch: a re-serialised body, with where it first differs", async () => {
    const reserialised = JSON.stringify(JSON.parse(delivery.body), null, 2);
    const result = await answer({ endpoint_id: endpoint.id, headers: delivery.headers, body: reserialised });
    expect(result).toMatchObject({ valid: false, code: "body_mismatch" });
    expect(result.reason).toContain("first differ at character 1");
  });

  it("a body pasted into a text box, its line endings turned to CRLF: verifies as typed, and says so", async () => {
    // A fixture a developer signed with the endpoint's secret, on several lines (LF), as a text box sends it.
    const typed = `${JSON.stringify(JSON.parse(delivery.body), null, 2)}\n`;
    const id = delivery.headers["webhook-id"]!;
    const now = new Date();
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(endpoint.secret).sign(id, now, typed),
    };
    const result = await answer({ endpoint_id: endpoint.id, headers, body: typed.replace(/\n/g, "\r\n") });
    expect(result).toEqual({
      valid: true,
      code: null,
      reason:
        "The signature verifies with this endpoint's current secret. (Its CRLF line endings were read as LF: a text box adds the CR. A receiver must verify the body exactly as received.)",
    });
    // Exactly as signed, nothing is said about line endings.
    expect((await answer({ endpoint_id: endpoint.id, headers, body: typed })).reason).toBe(
      "The signature verifies with this endpoint's current secret.",
    );
  });

  it.each([
    ["a line break typed after it (CRLF from a text box)", (body: string) => `${body}\r\n`],
    ["line breaks between its fields", (body: string) => body.replace(/,/g, ",\r\n")],
  ])("body_mismatch that is only line endings, %s: says so, quoting no \\r", async (_name, alter) => {
    const pasted = alter(delivery.body);
    const result = await answer({ endpoint_id: endpoint.id, headers: delivery.headers, body: pasted });
    expect(result).toMatchObject({ valid: false, code: "body_mismatch" });
    const breaks = pasted.split("\r\n").length - 1;
    expect(result.reason).toContain(
      `The body differs from the one signed for ${delivery.headers["webhook-id"]} only in line endings: the signed body has 0 line breaks, this one ${breaks}, the first difference at character ${pasted.indexOf("\r")}.`,
    );
    expect(result.reason).not.toContain("\\r");
  });

  it("timestamp_out_of_tolerance: the right signature, 10 minutes old, with how many seconds", async () => {
    const old = new Date(Date.now() - 600_000);
    const id = delivery.headers["webhook-id"]!;
    const signature = new Webhook(endpoint.secret).sign(id, old, delivery.body);
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(old.getTime() / 1000)),
      "webhook-signature": signature,
    };
    const result = await answer({ endpoint_id: endpoint.id, headers, body: delivery.body });
    expect(result.code).toBe("timestamp_out_of_tolerance");
    expect(result.reason).toMatch(/was 60\d seconds old/);
  });

  it("timestamp_mismatch: the timestamp changed after signing, with the one that was sent", async () => {
    const sent = Number(delivery.headers["webhook-timestamp"]);
    const headers = { ...delivery.headers, "webhook-timestamp": String(sent + 30) };
    // The attempt is recorded a moment after the receiver answered.
    await expect
      .poll(async () => (await answer({ endpoint_id: endpoint.id, headers, body: delivery.body })).code, {
        timeout: 20_000,
      })
      .toBe("timestamp_mismatch");
    const result = await answer({ endpoint_id: endpoint.id, headers, body: delivery.body });
    expect(result.reason).toContain(`made for webhook-timestamp ${sent}`);
    expect(result.reason).toContain(`the header says ${sent + 30}`);
  });

  it("other_endpoint, missing_header, malformed_signature and bad_signature", async () => {
    const wrong = await answer({ endpoint_id: other.id, ...delivery });
    expect(wrong).toMatchObject({ code: "other_endpoint" });
    // Named as the receiver knows it: by its URL.
    expect(wrong.reason).toContain(`http://127.0.0.1:${receiverPort}/debugged`);
    const unsigned = { ...delivery.headers };
    delete unsigned["webhook-signature"];
    expect(await answer({ endpoint_id: endpoint.id, headers: unsigned, body: delivery.body })).toMatchObject({
      code: "missing_header",
      reason: "The webhook-signature header is missing.",
    });
    for (const signature of ["v1,not-base64", "sha256=abc", ""]) {
      const headers = { ...delivery.headers, "webhook-signature": signature };
      const result = await answer({ endpoint_id: endpoint.id, headers, body: delivery.body });
      expect(result.code, signature).toBe(signature === "" ? "missing_header" : "malformed_signature");
    }
    const stranger = new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`);
    const forged = stranger.sign(delivery.headers["webhook-id"]!, new Date(), delivery.body);
    const headers = {
      ...delivery.headers,
      "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
      "webhook-signature": forged,
    };
    expect(await answer({ endpoint_id: endpoint.id, headers, body: delivery.body })).toMatchObject({
      code: "bad_signature",
    });
  });

  it("previous_secret after a rotation, with when", async () => {
    const rotated = await api(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST" });
    expect(rotated.status).toBe(200);
    const result = await answer({ endpoint_id: endpoint.id, ...delivery });
    expect(result.code).toBe("previous_secret");
    expect(result.reason).toMatch(/replaced at \d{4}-\d{2}-\d{2}T/);
  });

  it("422 for missing or malformed fields, 403 for another merchant's endpoint, 404 for none", async () => {
    const missing = await verify({});
    expect(missing.status).toBe(422);
    expect(Object.keys((missing.body as { errors: object }).errors).sort()).toEqual([
      "body",
      "endpoint_id",
      "headers",
    ]);
    expect((await verify({ endpoint_id: "1", headers: [], body: 3 })).status).toBe(422);
    const others = await verify({ endpoint_id: endpoint.id, ...delivery }, tokens.other);
    expect(others.status).toBe(403);
    expect((await verify({ endpoint_id: 999_999_999, ...delivery })).status).toBe(404);
  });
});
