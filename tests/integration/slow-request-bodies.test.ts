import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { paymentTotal, rawExchange, reuseConnection } from "../support/api-client";
import { readServerLog, startTestServer, type TestServer } from "../support/test-server";

// A slow client is not a database outage. The API's 2 s database deadline starts once the body is read;
// the body has API_BODY_TIMEOUT_MS (30 s) of its own, then 408. A body cut short is a 400.

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const body = '{"amount":1.5}';
const declaredLonger = Buffer.byteLength(body) + 50;

/** A create's request head, declaring `declared` bytes of body. */
function head(base: string, token: string, declared = Buffer.byteLength(body)): string {
  return [
    "POST /api/payments HTTP/1.1",
    `Host: ${new URL(base).host}`,
    `Authorization: Bearer ${token}`,
    "Content-Type: application/json",
    `Content-Length: ${declared}`,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
}

describe("a body sent slowly, within the limit", () => {
  it("one byte every 400 ms, past the 2 s database deadline: 201, and no database alert", async () => {
    const before = await paymentTotal(baseUrl, tokens.api);
    const { responses, firstByteMs } = await rawExchange(baseUrl, [head(baseUrl, tokens.api), ...body], {
      gapMs: 400,
    });
    console.info("slow body answered after", firstByteMs, "ms");
    expect(firstByteMs).toBeGreaterThan(5000);
    expect([responses[0]?.status, JSON.parse(responses[0]!.body)]).toEqual([
      201,
      { message: "Payment created successfully" },
    ]);
    expect(await paymentTotal(baseUrl, tokens.api)).toBe(before + 1);
    const requestId = responses[0]!.headers["x-request-id"]!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = readServerLog(baseUrl)
      .split("\n")
      .filter((line) => line.includes(requestId));
    expect(lines.map((line) => (JSON.parse(line) as { status?: number }).status)).toEqual([201]);
  });
});

describe("a body that does not arrive (API_BODY_TIMEOUT_MS=1500)", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer("slow-bodies", Number(new URL(baseUrl).port) + 9, {
      API_BODY_TIMEOUT_MS: "1500",
    });
    token = server.data.tokens.api;
  });
  afterAll(() => server?.stop());

  const timedOut = { message: "The request body did not arrive in time." };

  it.each([
    [
      "declared 50 bytes longer than sent, the client waiting",
      () => [head(server.baseUrl, token, declaredLonger) + body],
      0,
    ],
    ["one byte every 400 ms, past the limit", () => [head(server.baseUrl, token), ...body], 400],
  ])("%s: 408 JSON at the limit, the connection closed, nothing written", async (_name, parts, gapMs) => {
    const before = await paymentTotal(server.baseUrl, token);
    const { responses, firstByteMs } = await rawExchange(server.baseUrl, parts(), { gapMs });
    console.info("408 after", firstByteMs, "ms");
    expect(responses.map((response) => [response.status, JSON.parse(response.body) as unknown])).toEqual([
      [408, timedOut],
    ]);
    expect(responses[0]!.headers.connection).toBe("close");
    expect(firstByteMs).toBeGreaterThanOrEqual(1500);
    expect(firstByteMs).toBeLessThan(2500);
    expect(await paymentTotal(server.baseUrl, token)).toBe(before);
  });

  it("declared longer than sent, then the client closes its side: 400 JSON at once, nothing written", async () => {
    const before = await paymentTotal(server.baseUrl, token);
    const { responses, firstByteMs } = await rawExchange(
      server.baseUrl,
      [head(server.baseUrl, token, declaredLonger) + body],
      {
        end: true,
      },
    );
    expect(responses.map((response) => [response.status, JSON.parse(response.body) as unknown])).toEqual([
      [400, { message: "Bad Request" }],
    ]);
    expect(firstByteMs).toBeLessThan(1000);
    expect(await paymentTotal(server.baseUrl, token)).toBe(before);
  });

  it("a keep-alive client's 408: Connection: close, then the connection closes, with no reset", async () => {
    const keepAlive = head(server.baseUrl, token, declaredLonger).replace("Connection: close\r\n", "");
    const { responses, closed, reset } = await reuseConnection(
      server.baseUrl,
      [keepAlive + body],
      `GET /healthz HTTP/1.1\r\nHost: ${new URL(server.baseUrl).host}\r\n\r\n`,
    );
    expect([responses.map((response) => response.status), responses[0]!.headers.connection]).toEqual([
      [408],
      "close",
    ]);
    expect([closed, reset]).toEqual([true, false]);
  });

  it("none of them was logged or counted as a database failure", async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = readServerLog(server.baseUrl);
    expect(log).not.toContain("Database unavailable");
    expect(log).not.toMatch(/"level":50/);
    const metrics = await fetch(`${server.baseUrl}/metrics`, {
      headers: { Authorization: `Bearer ${server.env.METRICS_TOKEN}` },
    }).then((response) => response.text());
    const count = (status: number) =>
      Number(
        new RegExp(
          `^http_requests_total\\{route="api/payments",method="POST",status="${status}"\\} (\\d+)`,
          "m",
        ).exec(metrics)?.[1] ?? 0,
      );
    expect([count(408), count(400), count(503)]).toEqual([3, 1, 0]);
  });
});
