// Requests anyone can send to next-auth without an account: each is refused as before (same status and
// redirect), and none writes an error-level line (pino's level 50) to the server's log, which anyone could
// otherwise fill.
import { describe, expect, inject, it } from "vitest";
import { rawHttp } from "../support/api-client";
import { readServerLog } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { host } = new URL(baseUrl);

/** The server's log lines written while `work` ran. */
async function logDuring<T>(work: () => Promise<T>): Promise<{ result: T; log: string }> {
  const before = readServerLog(baseUrl).length;
  const result = await work();
  // The log is written as requests are answered; give the pipe a moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { result, log: readServerLog(baseUrl).slice(before) };
}

const levels = (log: string) =>
  log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => (JSON.parse(line) as { level: number; msg?: string }).level);

describe("unauthenticated next-auth requests are refused without an error-level log line", () => {
  it.each(["not a url", "http://", "https://exa mple.test/"])(
    "a credentials callback with callbackUrl %j: 302 to the error page, logged at warn at most",
    async (callbackUrl) => {
      const { result, log } = await logDuring(() =>
        fetch(`${baseUrl}/api/auth/callback/credentials`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            email: "someone@example.test",
            password: "not-the-password",
            callbackUrl,
          }).toString(),
          redirect: "manual",
        }),
      );
      expect([result.status, result.headers.get("location")]).toEqual([
        302,
        `${baseUrl}/api/auth/error?error=Configuration`,
      ]);
      expect(log).toContain("callbackUrl");
      expect(Math.max(0, ...levels(log))).toBeLessThanOrEqual(40);
    },
  );

  it("a credentials callback without its CSRF token: 302 to the login page, logged at warn at most", async () => {
    const { result, log } = await logDuring(() =>
      fetch(`${baseUrl}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=someone%40example.test&password=not-the-password",
        redirect: "manual",
      }),
    );
    expect([result.status, result.headers.get("location")]).toEqual([
      302,
      `${baseUrl}/login?error=MissingCSRF`,
    ]);
    expect(log).toContain('"auth_error":"MissingCSRF"');
    expect(Math.max(0, ...levels(log))).toBeLessThanOrEqual(40);
  });

  it("a signout from a foreign Host with no CSRF cookie: 302 to the login page, logged at warn at most", async () => {
    const { result, log } = await logDuring(() =>
      rawHttp(
        baseUrl,
        [
          "POST /api/auth/signout HTTP/1.1",
          "Host: attacker.example",
          "Content-Type: application/x-www-form-urlencoded",
          "Content-Length: 0",
          "Connection: close",
          "",
          "",
        ].join("\r\n"),
      ),
    );
    expect([result.status, result.headers.location]).toEqual([302, `${baseUrl}/login?error=MissingCSRF`]);
    expect(log).toContain('"auth_error":"MissingCSRF"');
    expect(Math.max(0, ...levels(log))).toBeLessThanOrEqual(40);
  });

  it("a dashboard page with a session cookie that is not ours: sent to log in as without one, a warning", async () => {
    const without = await fetch(`${baseUrl}/dashboard/payments`, { redirect: "manual" });
    const { result, log } = await logDuring(() =>
      fetch(`${baseUrl}/dashboard/payments`, {
        headers: { Cookie: "authjs.session-token=not-a-token" },
        redirect: "manual",
      }),
    );
    expect([result.status, result.headers.get("location")]).toEqual([
      without.status,
      without.headers.get("location"),
    ]);
    expect(log).toContain('"auth_error":"JWTSessionError"');
    expect(Math.max(0, ...levels(log))).toBeLessThanOrEqual(40);
  });

  it("the same signout on the app's own Host is refused the same way", async () => {
    const response = await rawHttp(
      baseUrl,
      `POST /api/auth/signout HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expect([response.status, response.headers.location]).toEqual([302, `${baseUrl}/login?error=MissingCSRF`]);
  });
});
