import { gzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal, rawRequest } from "../support/api-client";
import { deliveringReceiver } from "../support/delivering-receiver";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");
const invalid = (message: string) => ({
  message: "The given data was invalid.",
  errors: { amount: [message] },
});

describe("amounts written with an exponent follow the digits rule", () => {
  it.each([
    ["1e-400", invalid("The amount field must have at most 2 decimal places.")],
    ["1e-3", invalid("The amount field must have at most 2 decimal places.")],
    ["-1e-400", invalid("The amount field must be at least 0.")],
    ["1e400", invalid("The amount field must not be greater than 999999999999.99.")],
    ['"1e-400"', invalid("The amount field must be a number.")],
  ])("%s: 422, nothing written", async (amount, expected) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await callApi(baseUrl, "/api/payments", {
      token: tokens.badInput,
      raw: `{"amount": ${amount}}`,
    });
    expect([response.status, response.body]).toEqual([422, expected]);
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });

  it.each([
    ["1.5e-1", "0.15"],
    ["125e-2", "1.25"],
    ["1E2", "100.00"],
    ["0e999999999", "0.00"],
  ])("%s: 201, stored as %s", async (amount, stored) => {
    const response = await callApi(baseUrl, "/api/payments", {
      token: tokens.badInput,
      raw: `{"amount": ${amount}}`,
    });
    expect(response.status).toBe(201);
    const payment = await callApi(baseUrl, response.headers.get("location")!, { token: tokens.badInput });
    expect((payment.body as { data: { amount: string } }).data.amount).toBe(stored);
  });
});

describe("a body in an encoding the server does not decode", () => {
  const post = (encoding: string, body: Uint8Array<ArrayBuffer>) =>
    fetch(`${baseUrl}/api/payments`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${tokens.badInput}`,
        "Content-Type": "application/json",
        "Content-Encoding": encoding,
      },
      body,
    });
  const plain = new TextEncoder().encode('{"amount": 1}');

  it.each([
    ["gzip on a plain body", "gzip", plain],
    ["gzip on a gzipped body", "gzip", Uint8Array.from(gzipSync(plain))],
    ["deflate", "deflate", plain],
    ["br", "br", plain],
    ["identity then gzip", "identity, gzip", plain],
    ["an unknown coding", "x-custom", plain],
  ])("%s: 415, nothing written", async (_name, encoding, body) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await post(encoding, body);
    expect([response.status, await response.json()]).toEqual([415, { message: "Unsupported Media Type." }]);
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });

  it("identity is no encoding: 201", async () => {
    expect((await post("identity", plain)).status).toBe(201);
  });
});

describe("every route that takes a body holds it to the same rules", () => {
  // The delivery that proves the secret unchanged needs a worker (on PostgreSQL, a process of its own).
  const { receiver, port: receiverPort } = deliveringReceiver(serverEnv, 0);

  const auth = { Authorization: `Bearer ${tokens.api}` };
  const oversized = (bytes: number) => JSON.stringify({ padding: "x".repeat(bytes) });
  const tooLarge = [413, { message: "The request body must not be larger than 16 KiB." }] as const;
  const unsupported = [415, { message: "Unsupported Media Type." }] as const;

  it("rotate-secret, DELETE and resend refuse a body too large, not JSON or encoded: the endpoint and its secret stay", async () => {
    const path = `/bodies-${Date.now()}`;
    const created = await callApi(baseUrl, "/api/webhook-endpoints", {
      token: tokens.api,
      json: { url: `http://127.0.0.1:${receiverPort}${path}`, event_types: ["payment.pending"] },
    });
    expect(created.status).toBe(201);
    const endpoint = (created.body as { data: { id: number; secret: string } }).data;
    receiver.expectSecret(path, endpoint.secret);
    const rotate = `/api/webhook-endpoints/${endpoint.id}/rotate-secret`;
    const one = `/api/webhook-endpoints/${endpoint.id}`;
    const json = { ...auth, "Content-Type": "application/json" };
    const cases: Array<[string, string, RequestInit, readonly [number, unknown]]> = [
      ["POST", rotate, { headers: json, body: oversized(20 * 1024 * 1024) }, tooLarge],
      ["POST", rotate, { headers: { ...auth, "Content-Type": "text/plain" }, body: "x" }, unsupported],
      ["POST", rotate, { headers: { ...json, "Content-Encoding": "gzip" }, body: "{}" }, unsupported],
      ["DELETE", one, { headers: json, body: oversized(17_000) }, tooLarge],
      ["DELETE", one, { headers: { ...auth, "Content-Type": "text/plain" }, body: "x" }, unsupported],
      ["POST", "/api/webhook-deliveries/1/resend", { headers: json, body: oversized(17_000) }, tooLarge],
    ];
    for (const [method, target, init, [status, body]] of cases) {
      const response = await fetch(`${baseUrl}${target}`, { method, ...init });
      expect([method, target, response.status, await response.json()]).toEqual([
        method,
        target,
        status,
        body,
      ]);
    }
    // Streamed in chunks with no Content-Length: cut off at 16 KiB as well.
    const chunked = await rawRequest(`${baseUrl}${rotate}`, {
      method: "POST",
      headers: { ...json, "Transfer-Encoding": "chunked" },
      chunks: ['{"padding": "', ...Array<string>(20).fill("x".repeat(1024)), '"}'],
    });
    expect([chunked.status, JSON.parse(chunked.text)]).toEqual(tooLarge);

    expect((await callApi(baseUrl, one, { token: tokens.api })).status).toBe(200);
    // Never rotated: a delivery is signed once, with the secret shown at creation. After a rotation it
    // would carry two signatures (the old secret signs beside the new one for 24 hours).
    const payment = await callApi(baseUrl, "/api/payments", { token: tokens.api, json: { amount: 3 } });
    expect(payment.status).toBe(201);
    const [delivered] = await receiver.waitFor(path, (hooks) => hooks.length > 0);
    expect(delivered!.signature.split(" ")).toHaveLength(1);
    expect(delivered!.verified).toBe(true);
  });
});
