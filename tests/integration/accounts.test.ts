import { describe, expect, inject, it } from "vitest";
import { logInOverHttp } from "../support/http-session";
import { runAdmin, uniqueEmail } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { seed } = inject("data");

describe("merchant log in over HTTP", () => {
  it("logs the seeded merchant in and shows its own dashboard", async () => {
    const login = await logInOverHttp(baseUrl, seed.email, seed.password);
    expect(login.status).toBe(302);
    expect(new URL(login.location).pathname).toBe("/dashboard");
    const dashboard = await fetch(`${baseUrl}/dashboard`, {
      headers: { cookie: login.cookie },
      redirect: "manual",
    });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(seed.name);
  });

  it("refuses a wrong password without creating a session", async () => {
    const login = await logInOverHttp(baseUrl, seed.email, "not the password");
    expect(login.location).toContain("error=CredentialsSignin");
    const dashboard = await fetch(`${baseUrl}/dashboard`, {
      headers: { cookie: login.cookie },
      redirect: "manual",
    });
    expect(dashboard.status).toBe(307);
    expect(dashboard.headers.get("location")).toMatch(/\/login\?next=%2Fdashboard$/);
  });

  it("sends a logged-out visitor of a dashboard page to the login page, remembering the page", async () => {
    const response = await fetch(`${baseUrl}/dashboard`, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toMatch(/\/login\?next=%2Fdashboard$/);
    const deep = await fetch(`${baseUrl}/dashboard/payments/43?status=failed`, { redirect: "manual" });
    expect(deep.headers.get("location")).toMatch(
      /\/login\?next=%2Fdashboard%2Fpayments%2F43%3Fstatus%3Dfailed$/,
    );
    // A forged header cannot smuggle another target: proxy.ts overwrites it.
    const forged = await fetch(`${baseUrl}/dashboard`, {
      redirect: "manual",
      headers: { "x-requested-path": "//evil.example/dashboard" },
    });
    expect(forged.headers.get("location")).toMatch(/\/login\?next=%2Fdashboard$/);
  });

  it("throttles an email after 5 failures", async () => {
    // Failures count per email whether or not an account exists, so a fresh address isolates this test.
    const email = uniqueEmail("throttle");
    const client = { "X-Forwarded-For": "192.0.2.51" };
    for (let attempt = 0; attempt < 5; attempt++) {
      const login = await logInOverHttp(baseUrl, email, "wrong password", client);
      expect(login.location).toContain("code=invalid");
    }
    const throttled = await logInOverHttp(baseUrl, email, "wrong password", client);
    expect(throttled.location).toContain("code=throttled");
  });

  it("resets the failure count on a successful login", async () => {
    const client = { "X-Forwarded-For": "192.0.2.52" };
    const logIn = (password: string) => logInOverHttp(baseUrl, seed.email, password, client);
    expect((await logIn(seed.password)).location).toMatch(/\/dashboard$/);
    for (let attempt = 0; attempt < 4; attempt++) await logIn("wrong password");
    expect((await logIn(seed.password)).location).toMatch(/\/dashboard$/);
    for (let attempt = 0; attempt < 4; attempt++) await logIn("wrong password");
    expect((await logIn(seed.password)).location).toMatch(/\/dashboard$/);
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))("embedded database held by the running server", () => {
  const serverEnv = inject("serverEnv");

  it("refuses a second process with a clear message and keeps the first working with its data", async () => {
    const refused = runAdmin(
      ["merchant:create", "--email", uniqueEmail("second"), "--password", "long enough pw", "--json"],
      serverEnv,
    );
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(
      `The embedded database at ${serverEnv.PGLITE_DATA_DIR} is in use by another process`,
    );
    expect(refused.stderr).toMatch(/pid \d+, started .*dist\/server\/server\.js/);
    expect(refused.stderr).toContain("set DATABASE_URL");

    const login = await logInOverHttp(baseUrl, seed.email, seed.password);
    expect(new URL(login.location).pathname).toBe("/dashboard");
    const dashboard = await fetch(`${baseUrl}/dashboard`, { headers: { cookie: login.cookie } });
    expect(await dashboard.text()).toContain(seed.name);
  });
});
