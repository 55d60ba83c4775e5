// Deleting a sandbox while it is in use (issue 67, "Bad input"): its event stream ends cleanly, a webhook send
// under way finishes and is dropped with the sandbox, the worker goes on delivering for everyone else, and no
// other environment loses a row (counted before and after). Over real HTTP, with the account key a CI job holds;
// on PostgreSQL the sends come from a worker process, on PGlite from the server's own worker.
import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";
import { deliveringReceiver } from "../support/delivering-receiver";
import { openSse } from "../support/sse-client";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");
const { receiver, port: receiverPort, worker } = deliveringReceiver(serverEnv, 11);

async function sandboxWithEndpoint(name: string, path: string) {
  const made = await callApi(baseUrl, "/api/sandboxes", { token: tokens.account, json: { name } });
  expect(made.status, made.text).toBe(201);
  const { id, token } = (made.body as { data: { id: number; token: string } }).data;
  const endpoint = await callApi(baseUrl, "/api/webhook-endpoints", {
    token,
    json: { url: `http://127.0.0.1:${receiverPort}${path}`, events: ["payment.pending"] },
  });
  expect(endpoint.status, endpoint.text).toBe(201);
  const pay = async () => {
    const created = await callApi(baseUrl, "/api/payments", {
      token,
      json: { amount: "4.00", currency: "EUR" },
    });
    expect(created.status, created.text).toBe(201);
  };
  return { id, token, pay };
}

describe("deleting a sandbox while it is in use", () => {
  it("ends its stream and its send under way cleanly; the worker delivers on; no other environment loses a row", async () => {
    const stamp = Date.now();
    const kept = await sandboxWithEndpoint(`kept-${stamp}`, "/kept");
    const doomed = await sandboxWithEndpoint(`doomed-${stamp}`, "/doomed");
    await kept.pay();
    await kept.pay();
    await receiver.waitFor("/kept", (hooks) => hooks.length === 2, 60_000);
    const before = {
      kept: await paymentTotal(baseUrl, kept.token),
      first: await paymentTotal(baseUrl, tokens.api),
    };

    // The doomed sandbox streams its events, and its endpoint holds a send open.
    const stream = await openSse(`${baseUrl}/api/events/stream`, doomed.token);
    expect(stream.status).toBe(200);
    receiver.hold("/doomed");
    await doomed.pay();
    await stream.waitFor((events) => events.some((event) => event.event === "payment.pending"), 30_000);
    await receiver.waitFor("/doomed", (hooks) => hooks.length === 1, 60_000);

    const deleted = await callApi(baseUrl, `/api/sandboxes/${doomed.id}`, {
      token: tokens.account,
      method: "DELETE",
    });
    expect(deleted.status, deleted.text).toBe(204);
    receiver.release("/doomed");

    // The stream ends by itself (within a heartbeat), its key gone with the sandbox.
    const ended = await Promise.race([
      stream.ended.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, 45_000, false)),
    ]);
    expect(ended).toBe(true);
    expect((await callApi(baseUrl, "/api/payments", { token: doomed.token })).status).toBe(401);

    // The worker that was sending goes on: the kept sandbox's next payment is delivered.
    await kept.pay();
    await receiver.waitFor("/kept", (hooks) => hooks.length === 3, 60_000);
    expect(await paymentTotal(baseUrl, kept.token)).toBe(before.kept + 1);
    expect(await paymentTotal(baseUrl, tokens.api)).toBe(before.first);
    // The doomed endpoint got its one send, never a retry of a delivery whose sandbox is gone.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(receiver.on("/doomed")).toHaveLength(1);
    expect(worker()?.output() ?? "").not.toMatch(/"level":(50|60)/);
    // The account's sandboxes are few on the test servers (SANDBOXES_PER_ACCOUNT).
    await callApi(baseUrl, `/api/sandboxes/${kept.id}`, { token: tokens.account, method: "DELETE" });
  });
});
