// A refusal given before the body was read must leave a keep-alive connection usable: either the next request
// on it is answered, or the refusal says `Connection: close` and the connection closes. Never a hang, never a
// reset (Node's fetch, SDKs' keep-alive agents and proxies reuse sockets). A 2 MB body once left the socket
// dead: the next request was never answered, and the socket was reset about 6 s later.
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { paymentTotal, reuseConnection } from "../support/api-client";
import { paymentWithCheckout } from "../support/checkout-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const host = new URL(baseUrl).host;
const BIG = 2 * 1024 * 1024;

function request(options: {
  token?: string;
  headers?: string[];
  body?: Buffer;
  chunked?: boolean;
  ip?: string;
}): Array<string | Buffer> {
  const body = options.body ?? Buffer.alloc(0);
  const head = [
    "POST /api/payments HTTP/1.1",
    `Host: ${host}`,
    ...(options.token ? [`Authorization: Bearer ${options.token}`] : []),
    ...(options.ip ? [`X-Forwarded-For: ${options.ip}`] : []),
    ...(options.headers ?? ["Content-Type: application/json"]),
    options.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`,
    "",
    "",
  ].join("\r\n");
  if (!options.chunked) return [head, body];
  // Chunks of 64 KiB, as a streaming client sends them.
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += 65536) {
    const part = body.subarray(offset, offset + 65536);
    chunks.push(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]));
  }
  return [head, ...chunks, "0\r\n\r\n"];
}

const jsonOf = (size: number) => Buffer.from(`{"amount":1,"external_id":"${"x".repeat(size - 30)}"}`);
const nextRequest = `GET /api/payments?perPage=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${tokens.api}\r\n\r\n`;
/** An address of its own for each run: its 100 unauthenticated requests a minute are all this test's. */
const floodedIp = `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
const uploaderIp = `203.0.113.${1 + (randomBytes(1)[0]! % 250)}`;

describe("the next request on a connection after an early refusal", () => {
  it.each([
    [
      "413, a 2 MB body declared by Content-Length",
      () => request({ token: tokens.api, body: jsonOf(BIG) }),
      413,
    ],
    [
      "413, a 2 MB body sent chunked",
      () => request({ token: tokens.api, body: jsonOf(BIG), chunked: true }),
      413,
    ],
    ["413, 20 KiB (just over the limit)", () => request({ token: tokens.api, body: jsonOf(20 * 1024) }), 413],
    [
      "415, a 16 KiB body that is not JSON",
      () => request({ token: tokens.api, headers: ["Content-Type: text/plain"], body: jsonOf(16 * 1024) }),
      415,
    ],
    ["401, a 2 MB body with no token", () => request({ body: jsonOf(BIG) }), 401],
    ["401, a 2 MB body with a wrong token", () => request({ token: "pay_nope", body: jsonOf(BIG) }), 401],
    ["400, malformed JSON", () => request({ token: tokens.api, body: Buffer.from('{"amount":') }), 400],
    ["400, a NUL byte", () => request({ token: tokens.api, body: Buffer.from('{"amount":1\u0000}') }), 400],
  ])(
    "%s: answered, then the next request answered or the connection closed",
    async (_name, first, status) => {
      const before = await paymentTotal(baseUrl, tokens.api);
      const { responses, closed, reset } = await reuseConnection(baseUrl, first(), nextRequest);
      expect(responses[0]!.status).toBe(status);
      expect(reset).toBe(false);
      if (responses[0]!.headers.connection === "close") expect([closed, responses.length]).toEqual([true, 1]);
      else expect(responses[1]!.status).toBe(200);
      expect(await paymentTotal(baseUrl, tokens.api)).toBe(before);
    },
  );

  // The list filters and the customer routes refuse in the handler, after the query is parsed: each keeps the
  // connection, as every answer of the API does.
  it.each([
    ["422, a status the list does not know", "/api/payments?status=paid", 422],
    ["422, a date that is not one", "/api/payments?created_from=2026-02-30", 422],
    ["422, a refund filter's payment id that is not a number", "/api/refunds?payment_id=abc", 422],
    ["422, the customers list's page size", "/api/customers?perPage=0", 422],
    ["404, a customer id never used", "/api/customers/cus_never_used_here", 404],
    ["422, a balance transaction type that is none", "/api/balance-transactions?type=bogus", 422],
    ["404, a balance transaction that is none", "/api/balance-transactions/999999999", 404],
    ["422, the payouts list's page size", "/api/payouts?perPage=0", 422],
    ["404, a payout that is none", "/api/payouts/999999999", 404],
    ["422, a dispute status that is none", "/api/disputes?status=bogus", 422],
    ["404, a dispute that is none", "/api/disputes/999999999", 404],
  ])("GET %s: then the next request on the same socket", async (_name, path, status) => {
    const first = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${tokens.api}\r\n\r\n`;
    const { responses, reset } = await reuseConnection(baseUrl, [first], nextRequest);
    expect(responses.map((response) => [response.status, response.headers.connection])).toEqual([
      [status, "keep-alive"],
      [200, "keep-alive"],
    ]);
    expect(reset).toBe(false);
  });

  // The money routes that take a body: a refusal in the handler (422) and one before it (413) keep the socket.
  it.each([
    [
      "PUT /api/payout-account",
      "422, an IBAN that fails its check",
      '{"account_holder":"A","iban":"DE00"}',
      422,
    ],
    [
      "PUT /api/payout-account",
      "403, a key without the payout_account scope",
      '{"account_holder":"A","iban":"DE89370400440532013000"}',
      403,
    ],
    ["POST /api/payouts", "422, a currency that is none", '{"currency":"XYZ"}', 422],
    ["PUT /api/payout-account", "413, 2 MB", `{"account_holder":"${"x".repeat(BIG)}"}`, 413],
    ["POST /api/payouts", "413, 2 MB", `{"currency":"${"x".repeat(BIG)}"}`, 413],
    ["POST /api/disputes/999999999/evidence", "422, a submit that is no boolean", '{"submit":"yes"}', 422],
    ["POST /api/disputes/999999999/evidence", "404, a dispute that is none", '{"receipt":"r"}', 404],
    ["POST /api/disputes/999999999/evidence", "413, 2 MB", `{"receipt":"${"x".repeat(BIG)}"}`, 413],
    ["POST /api/payouts/999999999/cancel", "404, a payout that is none", "{}", 404],
    ["POST /api/disputes/999999999/close", "404, a dispute that is none", "{}", 404],
    ["POST /api/test-helpers/payouts/999999999/settle", "404, a payout that is none", "{}", 404],
    ["POST /api/test-helpers/disputes/999999999/close", "422, no outcome", "{}", 422],
    [
      "POST /api/test-helpers/disputes/999999999/close",
      "404, a dispute that is none",
      '{"outcome":"won"}',
      404,
    ],
    ["POST /api/test-helpers/payments/999999999/dispute", "404, a payment that is none", "{}", 404],
  ])("%s, %s: then the next request answered or the connection closed", async (line, _name, json, status) => {
    const body = Buffer.from(json);
    // The payout account takes only a key with its scope (the other keys' 403 is a row of its own).
    const token = line === "PUT /api/payout-account" && status !== 403 ? tokens.payoutAccount : tokens.api;
    const head = `${line} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { responses, closed, reset } = await reuseConnection(baseUrl, [head, body], nextRequest);
    expect([responses[0]!.status, reset]).toEqual([status, false]);
    if (responses[0]!.headers.connection === "close") expect(closed).toBe(true);
    else expect(responses[1]!.status).toBe(200);
  });

  // The evidence route reads up to 1 MiB: it reads nothing for a caller who may not write. Only part of the
  // declared body is sent: an answer that comes anyway shows the server did not wait for the rest, and the
  // connection it cannot reuse is closed, never left hanging. An address of its own keeps these refusals out
  // of the other suites' unauthenticated budget.
  it.each([
    ["no token", undefined, 401],
    ["a revoked token", tokens.revoked, 401],
    ["a read-only token", tokens.read, 403],
  ])("evidence of 900 KB from %s: answered %s before the body has arrived", async (_name, token, status) => {
    const head = [
      "POST /api/disputes/999999999/evidence HTTP/1.1",
      `Host: ${host}`,
      ...(token ? [`Authorization: Bearer ${token}`] : []),
      `X-Forwarded-For: ${uploaderIp}`,
      "Content-Type: application/json",
      "Content-Length: 900000",
      "",
      '{"receipt":"',
    ].join("\r\n");
    const { responses, closed, reset } = await reuseConnection(baseUrl, [head], nextRequest);
    expect([responses[0]!.status, reset]).toEqual([status, false]);
    if (responses[0]!.headers.connection === "close") expect(closed).toBe(true);
    else expect(responses[1]!.status).toBe(200);
  });

  it("429 on a 2 MB body (an address past its 100 unauthenticated requests a minute)", async () => {
    const flood = () =>
      fetch(`${baseUrl}/api/payments`, {
        headers: { Authorization: "Bearer pay_nope", "X-Forwarded-For": floodedIp },
      }).then((response) => response.status);
    // The limit refills one request every 0.6 s: flood until refused, then send the large body at once
    // (again, should a slow machine have let one refill in between).
    let outcome: Awaited<ReturnType<typeof reuseConnection>> | undefined;
    for (let round = 0; round < 5 && outcome?.responses[0]?.status !== 429; round++) {
      for (let index = 0; index < 300 && (await flood()) !== 429; index++);
      outcome = await reuseConnection(
        baseUrl,
        request({ token: "pay_nope", ip: floodedIp, body: jsonOf(BIG) }),
        nextRequest,
      );
    }
    const { responses, closed, reset } = outcome!;
    expect([responses[0]!.status, reset]).toEqual([429, false]);
    if (responses[0]!.headers.connection === "close") expect(closed).toBe(true);
    else expect(responses[1]!.status).toBe(200);
  });

  it.each([
    ["100 KiB (the page's endpoint answers 413 without reading it)", 100 * 1024],
    ["2 MB (refused before the page)", BIG],
  ])("a checkout page's form endpoint, %s: then the next request on the socket", async (_name, size) => {
    const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const path = new URL(checkoutUrl).pathname;
    const body = Buffer.from(`card_number=${"4".repeat(size)}`);
    const head = `POST ${path}/attempts HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${baseUrl}\r\nAccept: application/json\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { responses, closed, reset } = await reuseConnection(baseUrl, [head, body], nextRequest);
    expect([responses[0]!.status, reset]).toEqual([413, false]);
    if (responses[0]!.headers.connection === "close") expect(closed).toBe(true);
    else expect(responses[1]!.status).toBe(200);
  });

  it("small refusals keep the connection: 413 on 20 KiB, then 201 on the same socket", async () => {
    const create = `POST /api/payments HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${tokens.api}\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{"amount":1}`;
    const { responses } = await reuseConnection(
      baseUrl,
      request({ token: tokens.api, body: jsonOf(20 * 1024) }),
      create,
    );
    expect(responses.map((response) => [response.status, response.headers.connection])).toEqual([
      [413, "keep-alive"],
      [201, "keep-alive"],
    ]);
  });
});
