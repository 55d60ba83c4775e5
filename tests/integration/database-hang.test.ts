import { describe, expect, inject, it } from "vitest";
import { startFreezableProxy } from "../support/freezable-proxy";
import { startServerProcess } from "../support/test-server";

// The database does not refuse, it hangs: the network to it goes silent (a firewall dropping packets, a
// dead switch), so no error ever arrives. Requests must still be answered within about two seconds, the
// load balancer's readiness check must say so, and the server must recover by itself when the network does.

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");

type Timed = { status: number; ms: number; retryAfter: string | null; body: string };

async function timed(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = Date.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return {
    status: response.status,
    ms: Date.now() - started,
    retryAfter: response.headers.get("retry-after"),
    body,
  };
}

describe.skipIf(!process.env.DATABASE_URL)("a database that stops answering", () => {
  it("answers JSON 503 within 2 s while the network hangs, and recovers without a restart", async () => {
    const database = new URL(process.env.DATABASE_URL!);
    const proxy = await startFreezableProxy({ host: database.hostname, port: Number(database.port || 5432) });
    database.hostname = "127.0.0.1";
    database.port = String(proxy.port);
    const server = await startServerProcess(Number(new URL(baseUrl).port) + 5, {
      ...(serverEnv as NodeJS.ProcessEnv),
      DATABASE_URL: database.toString(),
    });
    const auth = { Authorization: `Bearer ${tokens.api}` };
    const list = () => timed(`${server.baseUrl}/api/payments?perPage=1`, { headers: auth });
    const create = () =>
      timed(`${server.baseUrl}/api/payments`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ amount: 1 }),
      });
    try {
      expect((await list()).status).toBe(200);

      proxy.freeze();
      const during = await Promise.all([list(), list(), create(), list(), create()]);
      const readiness = await timed(`${server.baseUrl}/readyz`);
      const liveness = await timed(`${server.baseUrl}/healthz`);
      console.info("while the network hangs", { during, readiness, liveness });
      for (const answer of during) {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toEqual({ message: "Service Unavailable" });
        expect(answer.retryAfter).toBe("5");
        expect(answer.ms).toBeLessThan(2500);
      }
      expect(readiness.status).toBe(503);
      expect(readiness.ms).toBeLessThan(1500);
      expect(liveness.status).toBe(200);
      expect(liveness.ms).toBeLessThan(500);

      // The partition ends, and the connections that lived through it are gone.
      proxy.thaw({ reset: true });
      const back = Date.now();
      let first: Timed | undefined;
      while (Date.now() - back < 10_000) {
        first = await list();
        if (first.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const recoveredMs = Date.now() - back;
      console.info("recovered after", recoveredMs, "ms");
      expect(first?.status).toBe(200);
      expect(recoveredMs).toBeLessThan(5000);
      // No broken connection is handed out again: every request after recovery succeeds.
      const after = await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 4 ? list() : create())),
      );
      expect(after.map((answer) => answer.status).filter((status) => status >= 500)).toEqual([]);
      expect((await timed(`${server.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      proxy.thaw();
      await server.stop();
      await proxy.close();
    }
  });
});
