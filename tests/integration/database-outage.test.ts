import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { startServerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");

type Outcome = {
  status: number;
  ms: number;
  startedAt: number;
  retryAfter: string | null;
  body: string;
  id?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops or starts the local cluster, as `.ci/run` starts it (root, Debian's pg_ctlcluster). Asynchronously:
 * a blocked test process would count its own stall as the server's latency.
 */
async function postgresCluster(action: "stop" | "start"): Promise<void> {
  const [version] = readdirSync("/etc/postgresql");
  await promisify(execFile)("pg_ctlcluster", ["--skip-systemctl-redirect", version!, "main", action], {
    timeout: 60_000,
  });
}

// Restarts the machine's PostgreSQL: only where asked (CI's PostgreSQL pass), never as part of a plain `npm test`.
describe.skipIf(!process.env.TEST_RESTART_POSTGRES || !process.env.DATABASE_URL)(
  "a PostgreSQL restart under load",
  () => {
    it("answers JSON 503 with Retry-After within 2 s, loses no created payment, and recovers by itself", async () => {
      const server = await startServerProcess(
        Number(new URL(baseUrl).port) + 4,
        serverEnv as NodeJS.ProcessEnv,
      );
      const outcomes: Outcome[] = [];
      let running = true;
      const load = async (create: boolean) => {
        while (running) {
          const startedAt = Date.now();
          const response = await fetch(`${server.baseUrl}/api/payments${create ? "" : "?perPage=1"}`, {
            method: create ? "POST" : "GET",
            headers: {
              Authorization: `Bearer ${tokens.api}`,
              ...(create ? { "Content-Type": "application/json" } : {}),
            },
            body: create ? JSON.stringify({ amount: 1 }) : undefined,
          });
          const body = await response.text();
          const id =
            response.status === 201 ? Number(response.headers.get("location")!.split("/").at(-1)) : undefined;
          outcomes.push({
            status: response.status,
            ms: Date.now() - startedAt,
            startedAt,
            retryAfter: response.headers.get("retry-after"),
            body,
            id,
          });
          // Paced, so a run stays well inside the seed token's 10,000 a minute.
          await sleep(response.status === 503 ? 100 : 10);
        }
      };
      const loops = [
        ...Array.from({ length: 4 }, () => load(false)),
        ...Array.from({ length: 2 }, () => load(true)),
      ];
      await sleep(1000);
      // Down for three seconds (a restart alone is over before most requests notice), then back.
      await postgresCluster("stop");
      await sleep(3000);
      await postgresCluster("start");
      const restarted = Date.now();
      await sleep(10_000);
      running = false;
      await Promise.all(loops);
      await server.stop();

      console.info(
        "slowest",
        [...outcomes]
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 5)
          .map(({ status, ms, startedAt }) => ({ status, ms, startedAt: startedAt - restarted })),
      );
      // The timeline, in half-second buckets from the moment PostgreSQL was back: statuses seen.
      const timeline = new Map<number, string[]>();
      for (const outcome of outcomes) {
        const bucket = Math.floor((outcome.startedAt - restarted) / 500) / 2;
        timeline.set(bucket, [...(timeline.get(bucket) ?? []), String(outcome.status)]);
      }
      console.info(
        "timeline",
        [...timeline].map(([at, seen]) => `${at}s: ${[...new Set(seen)].join("/")} ×${seen.length}`),
      );
      const statuses = new Set(outcomes.map((outcome) => outcome.status));
      expect(statuses.has(503)).toBe(true);
      expect([...statuses].every((status) => [200, 201, 503].includes(status))).toBe(true);
      for (const outcome of outcomes.filter((entry) => entry.status === 503)) {
        expect(JSON.parse(outcome.body)).toEqual({ message: "Service Unavailable" });
        expect(outcome.retryAfter).toBe("5");
      }
      // Bounded: no request waited for the database longer than about two seconds.
      expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeLessThan(2500);
      // Recovered without a restart of the app: everything asked 5 s after PostgreSQL is back succeeds (here
      // about 1 s; a loaded CI machine once took 4, while the pool's reconnects drained what queued meanwhile).
      const after = outcomes.filter((outcome) => outcome.startedAt > restarted + 5000);
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((outcome) => outcome.status >= 500)).toEqual([]);
      // Every create that answered 201 is in the database (asked directly: the API's rate limit is not the point).
      const created = outcomes.filter((outcome) => outcome.id !== undefined);
      expect(created.length).toBeGreaterThan(0);
      const sql = postgres(process.env.DATABASE_URL!, {
        max: 1,
        prepare: process.env.DATABASE_PREPARED_STATEMENTS !== "false",
      });
      try {
        const ids = created.map((outcome) => outcome.id!);
        const [{ count }] = await sql<[{ count: number }]>`
          select count(*)::int as count from payments where id = any(${`{${ids.join(",")}}`}::bigint[])`;
        expect(count).toBe(ids.length);
      } finally {
        await sql.end();
      }
      console.info("restart under load", {
        requests: outcomes.length,
        unavailable: outcomes.filter((outcome) => outcome.status === 503).length,
        slowestMs: Math.max(...outcomes.map((outcome) => outcome.ms)),
        created: created.length,
      });
    });
  },
);
