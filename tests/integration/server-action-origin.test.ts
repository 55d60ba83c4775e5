// Behind no trusted proxy, only APP_URL's origin may post a server action: Host and X-Forwarded-Host are the
// client's to set, and counted only from TRUSTED_PROXIES (the suite's own server trusts one hop, as behind a
// load balancer; http-protocol-edges.test.ts covers it there).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rawHttp } from "../support/api-client";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
beforeAll(async () => {
  // The test's own address (127.0.0.1) is not in the trusted network.
  server = await startTestServer("origin", Number(new URL(inject("baseUrl")).port) + 31, {
    TRUSTED_PROXIES: "10.0.0.0/8",
  });
});
afterAll(() => server?.stop());

/** An action call with an id no action has: Next.js answers it 409, but only past its own origin check. */
const postAction = (headers: Record<string, string>) =>
  rawHttp(
    server.baseUrl,
    [
      "POST /login HTTP/1.1",
      ...Object.entries({ Host: new URL(server.baseUrl).host, ...headers }).map(
        ([name, value]) => `${name}: ${value}`,
      ),
      `Next-Action: ${"7f".padEnd(42, "0")}`,
      "Content-Type: text/plain;charset=UTF-8",
      "Content-Length: 2",
      "Connection: close",
      "",
      "[]",
    ].join("\r\n"),
  );

describe("server actions, with no trusted proxy in front", () => {
  it.each([
    [
      "X-Forwarded-Host naming the Origin",
      { Origin: "https://pay.example", "X-Forwarded-Host": "pay.example" },
    ],
    ["Host naming the Origin", { Origin: "http://pay.example", Host: "pay.example" }],
    ["no Origin", {}],
  ])("%s: 403", async (_name, headers) => {
    const response = await postAction(headers);
    expect([response.status, JSON.parse(response.body)]).toEqual([
      403,
      { message: "This action is unauthorized." },
    ]);
  });

  it("APP_URL's origin, whatever Host and X-Forwarded-Host say: past the check", async () => {
    const response = await postAction({
      Origin: server.baseUrl,
      Host: "internal.example:8080",
      "X-Forwarded-Host": "evil.example",
    });
    expect(response.status).toBe(409);
  });
});
