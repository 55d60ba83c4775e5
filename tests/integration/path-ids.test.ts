import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { findFreePort } from "../support/free-port";
import { logInOverHttp } from "../support/http-session";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens, seed } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { token: tokens.api, ...request });

/**
 * Every way to write an id that is not its one canonical spelling, given a record that exists: none names it
 * (or anything else). The largest bigint and past it name nothing either, and are a 404, not a 500 or a 422.
 */
const spellings = (id: number): Array<[string, string]> => [
  ["a leading zero", `0${id}`],
  ["two leading zeros", `00${id}`],
  ["a percent-encoded leading zero", `%30${id}`],
  ["a plus sign", `+${id}`],
  ["a decimal point", `${id}.0`],
  ["a leading space", `%20${id}`],
  ["a trailing space", `${id}%20`],
  ["an exponent", `${id}e0`],
  ["hexadecimal", `0x${id.toString(16)}`],
  ["zero", "0"],
  ["a negative", `-${id}`],
  ["the largest bigint", "9223372036854775807"],
  ["past the largest bigint", "9223372036854775808"],
  ["twenty-five digits", "1".repeat(25)],
];

const receiver = new WebhookReceiver();
const receiverPort = findFreePort();
let worker: WorkerProcess | undefined;
let paymentId: number;
let endpoint: Record<string, unknown> & { id: number; secret: string };
let deliveryId: number;

async function createPayment(): Promise<number> {
  const created = await api("/api/payments", { json: { amount: 4.2 } });
  expect(created.status).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}

const deliveries = async () =>
  (
    (await api(`/api/webhook-endpoints/${endpoint.id}/deliveries?perPage=100`)).body as {
      data: Array<{ id: number; status: string; attempts: number }>;
    }
  ).data;

beforeAll(async () => {
  await receiver.listen(receiverPort);
  // On PostgreSQL the server runs no worker: this suite brings one, as a deployment would.
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
  const created = await api("/api/webhook-endpoints", {
    json: { url: `http://127.0.0.1:${receiverPort}/ids`, description: "Path ids" },
  });
  expect(created.status).toBe(201);
  endpoint = (created.body as { data: typeof endpoint }).data;
  receiver.expectSecret("/ids", endpoint.secret);
  paymentId = await createPayment();
  // A delivery that has finished, so a resend would queue it again (and show).
  await receiver.waitFor("/ids", (all) => all.some((hook) => hook.payload.data.id === paymentId));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const done = (await deliveries()).find((delivery) => delivery.status === "succeeded");
    if (done) {
      deliveryId = done.id;
      break;
    }
    if (Date.now() > deadline) throw new Error("No delivery succeeded within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
afterAll(async () => {
  await worker?.kill("SIGTERM");
  await receiver.close();
});

describe("an id in an API path is canonical: any other spelling names nothing", () => {
  const routes: Array<[string, string, unknown?]> = [
    ["GET", "/api/payments/{id}"],
    ["GET", "/api/webhook-endpoints/{id}"],
    ["PATCH", "/api/webhook-endpoints/{id}", { description: "Renamed through a spelling" }],
    ["POST", "/api/webhook-endpoints/{id}/rotate-secret"],
    ["GET", "/api/webhook-endpoints/{id}/deliveries"],
    ["POST", "/api/webhook-deliveries/{id}/resend"],
    ["DELETE", "/api/webhook-endpoints/{id}"],
  ];
  const idFor = (route: string) =>
    route.includes("payments") ? paymentId : route.includes("deliveries/") ? deliveryId : endpoint.id;

  it.each(routes)("%s %s: 404 Not Found, and nothing is written", async (method, route, json) => {
    const id = idFor(route);
    const answers = [];
    for (const [name, spelling] of spellings(id)) {
      const response = await api(route.replace("{id}", spelling), { method, json });
      answers.push([name, response.status, response.body]);
    }
    expect(answers).toEqual(spellings(id).map(([name]) => [name, 404, { message: "Not Found" }]));
    // The canonical spelling still names the record.
    if (method === "GET") expect((await api(route.replace("{id}", String(id)))).status).toBe(200);
  });

  it("left the endpoint, its secret and its delivery as they were", async () => {
    const shown = await api(`/api/webhook-endpoints/${endpoint.id}`);
    expect([shown.status, shown.body]).toEqual([200, { data: { ...endpoint, secret: undefined } }]);
    const delivery = (await deliveries()).find((item) => item.id === deliveryId);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    // Not rotated: the next delivery is signed by the creation secret alone (a rotation adds a second one).
    const next = await createPayment();
    const [hook] = (
      await receiver.waitFor("/ids", (all) => all.some((h) => h.payload.data.id === next))
    ).filter((h) => h.payload.data.id === next);
    expect([hook!.verified, hook!.signature.split(" ").length]).toEqual([true, 1]);
    // Not resent: the first payment's pending event arrived once.
    const first = receiver.on("/ids").filter((h) => h.payload.data.id === paymentId);
    expect(first.filter((h) => h.payload.event === "payment.pending")).toHaveLength(1);
  });
});

describe("the dashboard's [id] pages take only the canonical id", () => {
  it.each([
    ["payments", () => paymentId],
    ["webhooks", () => endpoint.id],
  ] as const)("/dashboard/%s/{id}: its 404 page for any other spelling", async (area, idOf) => {
    const { cookie } = await logInOverHttp(baseUrl, seed.email, seed.password, {
      "X-Forwarded-For": "192.0.2.66",
    });
    const visit = async (id: string) => {
      const response = await fetch(`${baseUrl}/dashboard/${area}/${id}`, { headers: { cookie } });
      const html = await response.text();
      return [response.status, html.includes("We couldn’t find that page.")];
    };
    // The frame carries the 404 page's text for the client's use, so the status tells the pages apart.
    expect((await visit(String(idOf())))[0]).toBe(200);
    const answers = [];
    for (const [name, spelling] of spellings(idOf())) answers.push([name, ...(await visit(spelling))]);
    expect(answers).toEqual(spellings(idOf()).map(([name]) => [name, 404, true]));
  });
});
