// The `payments` CLI as a child process against a real server of this file's own (on PostgreSQL with two API
// processes, its own database): listen forwards every event signed, resumes after a cut without losing or
// repeating one, trigger drives each state, and a bad key or URL is a clear exit.
import { mkdtempSync, statSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { runCli, startCli, type RunningCli } from "../support/cli-process";
import { CuttableProxy } from "../support/cuttable-proxy";
import { separateDatabase } from "../support/test-database";
import { startTestServer, type SeedData, type TestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

let server: TestServer;
let data: SeedData;
let database: Awaited<ReturnType<typeof separateDatabase>> | undefined;
const receiver = new WebhookReceiver();
let proxy: CuttableProxy;
let proxyUrl: string;
let listening: RunningCli | undefined;

beforeAll(async () => {
  const port = Number(new URL(inject("baseUrl")).port) + 23;
  database = await separateDatabase("cli");
  server = await startTestServer("cli", port, {
    PAYMENTS_AUTO_SETTLE_MS: "0",
    WORKER_MODE: "inline",
    // Two API processes on PostgreSQL: an event committed by one reaches a stream held by the other.
    ...(database.url ? { DATABASE_URL: database.url, WEB_CONCURRENCY: "2" } : {}),
  });
  data = server.data;
  await receiver.listen(Number(server.env.TEST_RECEIVER_PORT));
  proxy = new CuttableProxy({ host: "127.0.0.1", port });
  await proxy.listen(port + 29);
  proxyUrl = `http://127.0.0.1:${port + 29}`;
});
afterAll(async () => {
  await listening?.stop();
  await proxy?.close();
  await server?.stop();
  await receiver.close();
  await database?.drop();
});

const api = (urlPath: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(server.baseUrl, urlPath, { ...request, token: request.token ?? data.tokens.api });
const forwardUrl = (name: string) => `http://127.0.0.1:${server.env.TEST_RECEIVER_PORT}/${name}`;

/**
 * POST /api/payments on a connection of its own: node:cluster hands each new connection to the next API
 * process in turn, so with two of them the events are committed by both, whichever holds the stream.
 */
function createOnNewConnection(): Promise<{ status: number; location: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}/api/payments`,
      {
        method: "POST",
        agent: false,
        headers: { Authorization: `Bearer ${data.tokens.api}`, "Content-Type": "application/json" },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode!, location: response.headers.location! }),
        );
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ amount: "3.00" }));
  });
}

/** Creates a payment straight on the server (not through the proxy); settles it when asked. */
async function payment(outcome?: "completed" | "failed"): Promise<number> {
  const created = await createOnNewConnection();
  expect(created.status).toBe(201);
  const id = Number(created.location.split("/").at(-1));
  if (outcome)
    expect((await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome } })).status).toBe(200);
  return id;
}

/** `payments listen --json` through the proxy, once it says it is connected. */
async function listen(name: string): Promise<RunningCli> {
  const secret = runCli(["listen", "--forward-to", forwardUrl(name), "--print-secret"], {
    apiUrl: proxyUrl,
    apiKey: data.tokens.api,
  }).stdout.trim();
  expect(secret).toMatch(/^whsec_/);
  receiver.expectSecret(`/${name}`, secret);
  const cli = startCli(["listen", "--forward-to", forwardUrl(name), "--json"], {
    apiUrl: proxyUrl,
    apiKey: data.tokens.api,
  });
  await cli.waitForLine((line) => line.type === "connected");
  return cli;
}

describe("payments listen", () => {
  it("forwards 50 events, each signed with the printed secret, in order, once", async () => {
    listening = await listen("fifty");
    const ids: number[] = [];
    for (let index = 0; index < 25; index++) ids.push(await payment("completed"));
    const hooks = await receiver.waitFor("/fifty", (received) => received.length >= 50, 30_000);
    expect(hooks).toHaveLength(50);
    expect(hooks.every((hook) => hook.verified)).toBe(true);
    expect(new Set(hooks.map((hook) => hook.id)).size).toBe(50);
    for (const id of ids) {
      const mine = hooks.filter((hook) => hook.payload.data.id === id).map((hook) => hook.payload.event);
      expect(mine).toEqual(["payment.pending", "payment.completed"]);
    }
    // The receiver records a request before it answers; the CLI prints "forwarded" once the answer is back.
    // Events go one at a time, so the last one's line comes after every other.
    await listening.waitForLine((line) => line.type === "forwarded" && line.id === hooks.at(-1)?.id);
    const forwarded = listening.lines().filter((line) => line.type === "forwarded");
    expect(forwarded).toHaveLength(50);
    expect(forwarded.every((line) => line.status === 200 && typeof line.latency_ms === "number")).toBe(true);
    await listening.stop();
  });

  it("after the connection is cut, the 20 events made meanwhile all arrive once it is back, none twice", async () => {
    listening = await listen("cut");
    await payment();
    await receiver.waitFor("/cut", (received) => received.length === 1);
    proxy.cut();
    await listening.waitForLine((line) => line.type === "disconnected");
    const whileAway: number[] = [];
    for (let index = 0; index < 20; index++) whileAway.push(await payment());
    proxy.restore();
    const hooks = await receiver.waitFor("/cut", (received) => received.length >= 21, 40_000);
    // A little longer: a duplicate would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.on("/cut")).toHaveLength(21);
    expect(hooks.slice(1).map((hook) => hook.payload.data.id)).toEqual(whileAway);
    expect(hooks.every((hook) => hook.verified)).toBe(true);
    expect(listening.lines().some((line) => line.type === "connected" && line.resumed_after !== null)).toBe(
      true,
    );
    await listening.stop();
  });
});

describe("payments trigger", () => {
  it.each([
    ["payment.pending", ["payment.pending"]],
    ["payment.completed", ["payment.pending", "payment.completed"]],
    ["payment.failed", ["payment.pending", "payment.failed"]],
    ["payment.canceled", ["payment.pending", "payment.failed"]],
    ["refund.created", ["payment.pending", "payment.completed", "refund.created"]],
    ["refund.succeeded", ["payment.pending", "payment.completed", "refund.created", "refund.succeeded"]],
    ["refund.failed", ["payment.pending", "payment.completed", "refund.created", "refund.failed"]],
  ])("%s: real objects driven to that state, with their events", async (event, expected) => {
    const result = runCli(["trigger", event, "--json"], { apiUrl: server.baseUrl, apiKey: data.tokens.api });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const line = JSON.parse(result.stdout) as { payment_id: number };
    const events = await api(`/api/events?payment_id=${line.payment_id}&perPage=100`);
    const types = (events.body as { data: Array<{ event: string }> }).data
      .map((item) => item.event)
      .reverse();
    expect(types).toEqual(expected);
  });
});

describe("payments events resend and logs tail", () => {
  it("resends an event to the endpoint it went to; an unknown or another merchant's event is refused", async () => {
    receiver.expectSecret("/hooks", data.hooks.secret);
    const created = await api("/api/payments", { json: { amount: "6.00" }, token: data.tokens.hooks });
    const id = Number(created.headers.get("location")!.split("/").at(-1));
    const [first] = await receiver.waitFor("/hooks", (hooks) =>
      hooks.some((hook) => hook.payload.data.id === id),
    );
    const delivered = receiver.on("/hooks").find((hook) => hook.payload.data.id === id)!;
    expect(first).toBeDefined();
    const env = { apiUrl: server.baseUrl, apiKey: data.tokens.hooks };
    const resent = runCli(["events", "resend", delivered.id, "--json"], env);
    expect(resent.code).toBe(0);
    expect(JSON.parse(resent.stdout)).toEqual({ type: "resent", id: delivered.id, deliveries_queued: 1 });
    const again = await receiver.waitFor(
      "/hooks",
      (hooks) => hooks.filter((hook) => hook.id === delivered.id).length === 2,
    );
    expect(again.filter((hook) => hook.id === delivered.id).every((hook) => hook.verified)).toBe(true);
    const unknown = runCli(["events", "resend", "evt_nope"], env);
    expect([unknown.code, unknown.stderr]).toEqual([1, "Error: No event evt_nope on this account.\n"]);
    const others = runCli(["events", "resend", delivered.id], {
      apiUrl: server.baseUrl,
      apiKey: data.tokens.api,
    });
    expect([others.code, others.stderr]).toEqual([1, `Error: No event ${delivered.id} on this account.\n`]);
  });

  it("tails the request log, filtered by status class, and stops on Ctrl-C", async () => {
    const tail = startCli(["logs", "tail", "--status", "4xx", "--json"], {
      apiUrl: server.baseUrl,
      apiKey: data.tokens.api,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await payment();
    const refused = await api("/api/payments", { json: { amount: "abc" } });
    expect(refused.status).toBe(422);
    const requestId = refused.headers.get("x-request-id");
    await tail.waitForLine((line) => line.request_id === requestId, 20_000);
    expect(
      tail
        .lines()
        .every((line) => typeof line.status === "number" && line.status >= 400 && line.status < 500),
    ).toBe(true);
    expect(JSON.stringify(tail.lines())).not.toContain(data.tokens.api);
    expect(await tail.stop()).toBe(0);
    const bad = await api("/api/request-logs?status=3xx&limit=500");
    expect(bad.status).toBe(422);
    expect(Object.keys((bad.body as { errors: object }).errors).sort()).toEqual(["limit", "status"]);
  });
});

describe("refusals", () => {
  it("a bad key: exit 3 and one line, no stack trace, for listen, trigger and login", () => {
    const env = { apiUrl: server.baseUrl, apiKey: "pay_notarealkey" };
    for (const args of [
      ["listen", "--forward-to", forwardUrl("never")],
      ["trigger", "payment.pending"],
    ]) {
      const result = runCli(args, env);
      expect(result.code, args.join(" ")).toBe(3);
      expect(result.stderr).toMatch(/^Error: The API refused the key \(401\)/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const login = runCli(["login", "--api-url", server.baseUrl, "--api-key", "pay_notarealkey"]);
    expect(login.code).toBe(3);
  });

  it("a malformed URL, an unknown event or no login: exit 2 or 3 with what to do", () => {
    const env = { apiUrl: server.baseUrl, apiKey: data.tokens.api };
    expect(runCli(["listen", "--forward-to", "localhost:4242"], env)).toMatchObject({ code: 2 });
    expect(runCli(["trigger", "payment.nope"], env).code).toBe(2);
    expect(runCli(["login", "--api-url", "ftp://x", "--api-key", "k"]).code).toBe(2);
    const none = runCli(["trigger", "payment.pending"]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("payments login");
    expect(runCli(["--help"]).stdout).toContain("Exit codes:");
  });

  it("login checks the key, then stores it readable by the user only", () => {
    const configDir = mkdtempSync(path.join(tmpdir(), "payments-login-"));
    const login = runCli(["login", "--api-url", server.baseUrl, "--api-key", data.tokens.read, "--json"], {
      configDir,
    });
    expect(login.code).toBe(0);
    const file = path.join(configDir, "payments", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(login.stdout)).toMatchObject({ type: "logged_in", config: file });
    expect(login.stdout).not.toContain(data.tokens.read);
    // The stored login is used when no variable overrides it.
    expect(runCli(["listen", "--forward-to", forwardUrl("x"), "--print-secret"], { configDir }).code).toBe(0);
  });
});
