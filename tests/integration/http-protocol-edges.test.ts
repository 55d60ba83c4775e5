import { describe, expect, inject, it } from "vitest";
import { callApi, rawExchange, rawHttp } from "../support/api-client";
import { readServerLog } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const { host } = new URL(baseUrl);
const auth = `Authorization: Bearer ${tokens.api}`;

/** The server's log lines written while `work` ran. */
async function logDuring(work: () => Promise<void>): Promise<string> {
  const before = readServerLog(baseUrl).length;
  await work();
  // The log is written as requests are answered; give the pipe a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return readServerLog(baseUrl).slice(before);
}

describe("requests HTTP/1.1 servers answer before any route", () => {
  it.each([
    ["HTTP/2.0 on an HTTP/1.1 connection", `GET /api/payments HTTP/2.0\r\nHost: ${host}\r\n${auth}\r\n\r\n`],
    ["HTTP/0.9 with headers", `GET /healthz HTTP/0.9\r\nHost: ${host}\r\n\r\n`],
  ])("%s: 505 JSON, and the connection closes", async (_name, request) => {
    const response = await rawHttp(baseUrl, request);
    expect([response.status, response.headers["content-type"], JSON.parse(response.body)]).toEqual([
      505,
      "application/json",
      { message: "HTTP Version Not Supported" },
    ]);
    expect(response.headers.connection).toBe("close");
  });

  it("CONNECT: 405 JSON with the methods the server takes (Node closed the connection without a word)", async () => {
    const response = await rawHttp(
      baseUrl,
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`,
    );
    expect([response.status, response.headers.allow, JSON.parse(response.body)]).toEqual([
      405,
      "GET, HEAD, POST, OPTIONS",
      { message: "Method Not Allowed" },
    ]);
  });

  it.each([
    ["one API request", [`GET /api/payments?perPage=1 HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`], [200]],
    [
      "two requests, the slower first",
      [
        `GET /api/payments?perPage=1 HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`,
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      ],
      [200, 200],
    ],
  ])(
    "pipelined, %s then garbage: each answered in order, then a JSON 400",
    async (_name, valid, statuses) => {
      const { responses } = await rawExchange(baseUrl, [`${valid.join("")}GARBAGE\r\n\r\nMORE\r\n\r\n`]);
      expect(responses.map((response) => response.status)).toEqual([...statuses, 400]);
      expect(JSON.parse(responses.at(-1)!.body)).toEqual({ message: "Bad Request" });
      expect(JSON.parse(responses[0]!.body)).toHaveProperty("meta");
    },
  );
});

describe("next-auth's paths answer JSON, like the rest of /api", () => {
  it.each([
    ["GET", "/api/auth/%ZZ", 400, { message: "Bad Request" }],
    ["POST", "/api/auth/%E0%A4%A", 400, { message: "Bad Request" }],
    ["GET", "/api/auth/nonsense", 404, { message: "Not Found" }],
    ["GET", "/api/auth/", 404, { message: "Not Found" }],
    ["POST", "/api/auth/callback/unknown", 404, { message: "Not Found" }],
    ["GET", "/api/auth/callback", 404, { message: "Not Found" }],
    ["GET", "/api/auth/csrf/extra", 404, { message: "Not Found" }],
    ["GET", "/api/auth/verify-request", 404, { message: "Not Found" }],
    ["GET", "/api/auth/webauthn-options/credentials", 404, { message: "Not Found" }],
    ["GET", "/api/auth/error?error=Configuration", 500, { message: "Server Error" }],
    ["GET", "/api/auth/error?error=constructor", 400, { message: "Bad Request" }],
    [
      "GET",
      "/api/auth/signout",
      405,
      {
        message: "The GET method is not supported for route api/auth/signout. Supported methods: POST.",
      },
    ],
    [
      "GET",
      "/api/auth/callback/credentials",
      405,
      {
        message:
          "The GET method is not supported for route api/auth/callback/credentials. Supported methods: POST.",
      },
    ],
    [
      "PUT",
      "/api/auth/session",
      405,
      {
        message: "The PUT method is not supported for route api/auth/session. Supported methods: GET, POST.",
      },
    ],
  ])(
    "%s %s: %i JSON, no redirect, no HTML, nothing logged as an error",
    async (method, path, status, body) => {
      let response: Awaited<ReturnType<typeof callApi>> | undefined;
      const log = await logDuring(async () => {
        response = await callApi(baseUrl, path, { method });
      });
      expect([response!.status, response!.headers.get("content-type"), response!.body]).toEqual([
        status,
        "application/json",
        body,
      ]);
      expect(log).not.toMatch(/"level":50|Internal Server Error/);
    },
  );

  it("still serves what sign-in uses: the CSRF token, the session, the credentials callback", async () => {
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
    expect(csrf.status).toBe(200);
    expect(await csrf.json()).toHaveProperty("csrfToken");
    const session = await fetch(`${baseUrl}/api/auth/session`);
    expect([session.status, await session.json()]).toEqual([200, null]);
    // Without its CSRF token the callback sends the browser back to the login page, as before.
    const refused = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=someone%40example.test&password=not-the-password",
      redirect: "manual",
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toMatch(/\/login\?error=MissingCSRF$/);
  });
});
