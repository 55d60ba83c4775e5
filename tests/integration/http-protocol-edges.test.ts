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
    // On APP_URL's origin, though it is a loopback address (Next.js rewrites those to localhost).
    expect(refused.headers.get("location")).toBe(`${baseUrl}/login?error=MissingCSRF`);
    const signIn = await fetch(`${baseUrl}/api/auth/signin`, { redirect: "manual" });
    expect([signIn.status, signIn.headers.get("location")]).toEqual([
      302,
      `/login?callbackUrl=${encodeURIComponent(baseUrl)}`,
    ]);
  });
});

describe("server actions posted from another origin", () => {
  // An id in the shape Next.js gives actions; no action has it, which Next.js answers only past its origin check.
  const unknownAction = "7f".padEnd(42, "0");
  /** A fetch-style action call, on a raw socket so that Host can be what a proxy would send. */
  const postAction = (headers: Record<string, string>, actionId = unknownAction) =>
    rawHttp(
      baseUrl,
      [
        "POST /login HTTP/1.1",
        ...Object.entries({ Host: host, ...headers }).map(([name, value]) => `${name}: ${value}`),
        `Next-Action: ${actionId}`,
        "Content-Type: text/plain;charset=UTF-8",
        "Content-Length: 2",
        "Connection: close",
        "",
        "[]",
      ].join("\r\n"),
    );

  it.each([
    ["another site", { Origin: "https://evil.example" }],
    ["an opaque origin", { Origin: "null" }],
    ["another port of this host", { Origin: baseUrl.replace(/:\d+$/, ":1") }],
    ["no Origin at all", {}],
  ])("from %s: 403 JSON, no error logged", async (_name, headers) => {
    let response: Awaited<ReturnType<typeof rawHttp>> | undefined;
    const log = await logDuring(async () => {
      response = await postAction(headers);
    });
    expect([response!.status, JSON.parse(response!.body)]).toEqual([
      403,
      { message: "This action is unauthorized." },
    ]);
    expect(log).not.toMatch(/Invalid Server Actions request|does not match `origin`|"level":50/);
  });

  it("a form posted as multipart from another site: 403", async () => {
    const form = new FormData();
    form.set("email", "someone@example.test");
    const response = await fetch(`${baseUrl}/login`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: form,
    });
    expect(response.status).toBe(403);
  });

  it.each([
    ["APP_URL's origin", { Origin: baseUrl }],
    [
      "APP_URL's origin, through a proxy that rewrote Host",
      { Origin: baseUrl, Host: "internal.example:8080" },
    ],
    [
      "the host the browser addressed, behind a proxy",
      { Origin: "https://pay.example", "X-Forwarded-Host": "pay.example" },
    ],
  ])("from %s: past the origin check (an unknown action id is Next.js's 409)", async (_name, headers) => {
    const response = await postAction(headers);
    expect(response.status).toBe(409);
  });

  it("an action id in no valid shape, from this origin: 4xx, not 500", async () => {
    const response = await postAction({ Origin: baseUrl }, "garbage");
    expect(response.status).toBe(400);
  });
});

describe("dashboard paths that are not valid URL encoding", () => {
  it.each(["/dashboard/%ZZ", "/dashboard/events/evt_%E0%A4%A", "/login%"])(
    "%s: a 400 before Next.js (which answered a 500 and logged an error)",
    async (path) => {
      const log = await logDuring(async () => {
        const response = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
        expect(response.status).toBe(400);
        expect(await response.text()).toContain("not valid URL encoding");
      });
      expect(log).not.toContain('"level":50');
    },
  );
});
