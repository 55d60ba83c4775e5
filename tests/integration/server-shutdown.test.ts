import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";
import { startServerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");

// A second server on the same database, so stopping it leaves the suite's server running: PostgreSQL only
// (PGlite admits one process). Draining does not depend on the database.
describe.skipIf(!process.env.DATABASE_URL)("stopping a server with SIGTERM", () => {
  it("finishes the requests under way: every create it answered is there, none failed, none was half-done", async () => {
    const server = await startServerProcess(
      Number(new URL(baseUrl).port) + 2,
      serverEnv as NodeJS.ProcessEnv,
    );
    const before = await paymentTotal(baseUrl, tokens.idempotency);
    const requests = Array.from({ length: 40 }, (_, index) =>
      callApi(server.baseUrl, "/api/payments", {
        token: tokens.idempotency,
        json: { amount: 5, external_id: `drain_${index}` },
      }).then(
        (response) => response.status,
        () => "not connected",
      ),
    );
    // Stop while the burst is being served.
    await Promise.race(requests);
    await server.stop();
    const outcomes = await Promise.all(requests);

    const created = outcomes.filter((outcome) => outcome === 201).length;
    expect(created).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome !== 201 && outcome !== "not connected")).toEqual([]);
    expect(await paymentTotal(baseUrl, tokens.idempotency)).toBe(before + created);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("WEB_CONCURRENCY", () => {
  it("serves from several processes on one port, and SIGTERM stops them all", async () => {
    const server = await startServerProcess(Number(new URL(baseUrl).port) + 3, {
      ...(serverEnv as NodeJS.ProcessEnv),
      WEB_CONCURRENCY: "2",
    });
    // A new connection per request, so the primary hands them out in turn. The server is ready once its first
    // API process takes connections; the second may still be booting on a loaded machine, so ask until both
    // have answered (at least 20 requests), with a wide deadline.
    const servedBy = () =>
      new Set(
        server
          .output()
          .split("\n")
          .filter((line) => line.includes('"msg":"api request"'))
          .map((line) => (JSON.parse(line) as { pid: number }).pid),
      );
    let sent = 0;
    const deadline = Date.now() + 60_000;
    while (sent < 20 || (servedBy().size < 2 && Date.now() < deadline)) {
      const response = await fetch(`${server.baseUrl}/api/payments?perPage=1`, {
        headers: { Authorization: `Bearer ${tokens.api}`, Connection: "close" },
      });
      expect(response.status).toBe(200);
      sent++;
      if (sent >= 20) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(servedBy().size).toBe(2);
    // Whichever process a scrape reaches, it reads both processes' requests, summed by the primary.
    for (let scrape = 0; scrape < 4; scrape++) {
      const metrics = await fetch(`${server.baseUrl}/metrics`, {
        headers: { Authorization: `Bearer ${serverEnv.METRICS_TOKEN}`, Connection: "close" },
      }).then((response) => response.text());
      expect(metrics).toMatch(
        new RegExp(`^http_requests_total\\{route="api/payments",method="GET",status="200"\\} ${sent}$`, "m"),
      );
      expect(metrics).toMatch(/^webhook_queue_depth\{state="due"\} \d+$/m);
    }
    await server.stop();
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the dashboard's own process", () => {
  it("serves pages through the API processes, redirects on APP_URL; while it is replaced pages get a JSON 503 and the API answers", async () => {
    const port = Number(new URL(baseUrl).port) + 4;
    // A public origin that is not this machine's, to tell it apart from Next.js's own http://localhost:PORT.
    const appUrl = `http://pay.example.test:${port}`;
    const server = await startServerProcess(port, { ...(serverEnv as NodeJS.ProcessEnv), APP_URL: appUrl });
    const dashboardPid = () => {
      const lines = server.output().match(/Dashboard process (\d+) listening/g) ?? [];
      return Number(lines.at(-1)?.split(" ")[2]);
    };
    const first = dashboardPid();
    expect(first).toBeGreaterThan(0);
    const login = await fetch(`${server.baseUrl}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("<html");
    // next-auth's redirects (here: a sign-in post without its CSRF token) are built on APP_URL.
    const refused = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=someone%40example.test&password=not-the-password",
      redirect: "manual",
    });
    expect([refused.status, refused.headers.get("location")]).toEqual([
      302,
      `${appUrl}/login?error=MissingCSRF`,
    ]);

    process.kill(first, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await fetch(`${server.baseUrl}/login`);
    expect([during.status, during.headers.get("retry-after"), await during.json()]).toEqual([
      503,
      "1",
      { message: "Service Unavailable" },
    ]);
    const api = await fetch(`${server.baseUrl}/api/payments?perPage=1`, {
      headers: { Authorization: `Bearer ${tokens.api}` },
    });
    expect(api.status).toBe(200);

    // The primary starts another dashboard process, on the same socket.
    const deadline = Date.now() + 30_000;
    while (dashboardPid() === first && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(dashboardPid()).not.toBe(first);
    expect((await fetch(`${server.baseUrl}/login`)).status).toBe(200);
    await server.stop();
    await expect(fetch(`${server.baseUrl}/login`)).rejects.toThrow();
  });
});

// A process that dies before the platform has been up failed to boot: another try would fail the same way, so
// `npm start` exits with the reason instead of restarting it every second (startServerProcess rejects only
// once the primary itself has exited).
describe.skipIf(!process.env.DATABASE_URL)("a server that cannot boot", () => {
  it.skipIf(process.env.DATABASE_PREPARED_STATEMENTS !== "false")(
    "behind a transaction pooler with prepared statements on: exits with a clear error, never a hang",
    async () => {
      const port = Number(new URL(baseUrl).port) + 5;
      const started = Date.now();
      await expect(
        startServerProcess(port, {
          ...(serverEnv as NodeJS.ProcessEnv),
          DATABASE_PREPARED_STATEMENTS: "true",
        }),
      ).rejects.toThrow(/connection pooler in transaction mode[\s\S]*DATABASE_PREPARED_STATEMENTS=false/);
      expect(Date.now() - started).toBeLessThan(30_000);
    },
  );

  it("with its port taken: exits with the reason once", async () => {
    const port = Number(new URL(baseUrl).port) + 6;
    // Accepts connections and closes them: not an HTTP server startServerProcess would mistake for its own.
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
    try {
      const failure = await startServerProcess(port, serverEnv as NodeJS.ProcessEnv).then(
        () => new Error("the server started"),
        (error: Error) => error,
      );
      // The primary holds the port itself (lib/platform/connection-dispatcher.ts): it says so, and forks nothing.
      expect(failure.message).toMatch(`Port ${port} is in use by another process`);
      expect(failure.message).not.toContain("starting another");
    } finally {
      squatter.close();
    }
  });
});
