// On PostgreSQL and on Citus (not PGlite: no pool): an API process opens its pool's connections before it takes
// requests (db/pool.ts, `warmPool`), and on Citus each of them has its session on every worker already. A
// burst as a fresh server's first work otherwise opened them all at once, and on Citus most of it passed the
// deadline (docs/scaling.md, "Per node").
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { db } from "../support/direct-db";
import { startServerProcess } from "../support/test-server";

const citus = process.env.TEST_CITUS === "1";
const POOL_SIZE = 4;

describe.skipIf(!process.env.DATABASE_URL)("a fresh API process's database pool", () => {
  // Every connection the server opens says who it is, so the test finds them among the others.
  const tag = `pool-warm-up-${randomBytes(4).toString("hex")}`;
  let server: Awaited<ReturnType<typeof startServerProcess>>;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set("application_name", tag);
    server = await startServerProcess(Number(new URL(inject("baseUrl")).port) + 11, {
      ...(inject("serverEnv") as NodeJS.ProcessEnv),
      DATABASE_URL: url.toString(),
      DATABASE_POOL_MAX: String(POOL_SIZE),
    });
  }, 120_000);
  afterAll(() => server?.stop());

  /** The server's open sessions on the database it was given, before it has been sent an API request. */
  const serverSessions = () =>
    selectRows<{ global_pid: string }>(
      db,
      citus
        ? sql`select global_pid::text from citus_stat_activity
              where datname = current_database() and application_name = ${tag} and nodeid = (
                select nodeid from pg_dist_node where groupid = 0)`
        : sql`select '' as global_pid from pg_stat_activity
              where datname = current_database() and application_name = ${tag}`,
    );

  it("has every connection of its pool open before its first request", async () => {
    // The API process's pool, and the dashboard process's own connection (its boot checks read through it).
    expect((await serverSessions()).length).toBeGreaterThanOrEqual(POOL_SIZE);
    expect(server.output()).not.toContain("was not opened ahead");
  });

  it.runIf(citus)("on Citus, each of them has its session on every worker", async () => {
    const sessions = (await serverSessions()).map((each) => sql`${each.global_pid}`);
    expect(sessions.length).toBeGreaterThanOrEqual(POOL_SIZE);
    const workers = await selectRows<{ nodeid: number }>(
      db,
      sql`select nodeid from pg_dist_node where groupid <> 0 and isactive order by nodeid`,
    );
    expect(workers.length).toBeGreaterThan(0);
    for (const { nodeid } of workers) {
      const onWorker = await selectRows<{ global_pid: string }>(
        db,
        sql`select distinct global_pid::text from citus_stat_activity
            where nodeid = ${nodeid} and global_pid::text in (${sql.join(sessions, sql`, `)})`,
      );
      expect(onWorker.length, `worker node ${nodeid}`).toBeGreaterThanOrEqual(POOL_SIZE);
    }
  });
});
