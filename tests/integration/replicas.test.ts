// Read replicas against a real streaming standby (scripts/ci-standby.sh; CI runs the PostgreSQL pass with
// DATABASE_REPLICA_URLS naming it): reads reach it, counted in /metrics; read-your-writes while its replay is
// paused; a lagging replica is skipped; stopping it fails no request. Skipped without a replica configured.
import { execFileSync } from "node:child_process";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const serverEnv = inject("serverEnv");
const replicaUrl = serverEnv.DATABASE_REPLICA_URLS?.split(",")[0];
const maxLagMs = Number(serverEnv.DATABASE_REPLICA_MAX_LAG_MS ?? 5000);
/** "15 standby": the cluster to stop and start (pg_ctlcluster); the stop test is skipped without it. */
const standbyCluster = process.env.TEST_STANDBY_CLUSTER;

const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** db_reads_total by target, from the server's /metrics. */
async function readCounts(): Promise<{ primary: number; replica: number }> {
  const text = await fetch(`${baseUrl}/metrics`, {
    headers: { Authorization: `Bearer ${serverEnv.METRICS_TOKEN}` },
  }).then((response) => response.text());
  const counts = { primary: 0, replica: 0 };
  for (const [, target, value] of text.matchAll(/^db_reads_total\{target="([^"]+)"\} (\S+)$/gm))
    counts[target === "primary" ? "primary" : "replica"] += Number(value);
  return counts;
}
async function replicaLagSeconds(): Promise<number> {
  const text = await fetch(`${baseUrl}/metrics`, {
    headers: { Authorization: `Bearer ${serverEnv.METRICS_TOKEN}` },
  }).then((response) => response.text());
  const match = /^db_replica_lag_seconds\{replica="[^"]+"\} (\S+)$/m.exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

/** Lists payments until one list is served by the replica (it is watched every 200 ms; CI is slow). */
async function untilReadsReachReplica(token = tokens.read) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const before = await readCounts();
    expect((await api("/api/payments?perPage=1", { token })).status).toBe(200);
    if ((await readCounts()).replica > before.replica) return;
    if (Date.now() > deadline) throw new Error("No read reached the replica within 60 s");
    await sleep(250);
  }
}

describe.skipIf(!replicaUrl)("read replicas (a real hot standby)", () => {
  let standby: postgres.Sql;
  beforeAll(async () => {
    standby = postgres(replicaUrl!, { max: 1, onnotice: () => {} });
    const [row] = await standby<{ recovering: boolean }[]>`select pg_is_in_recovery() as recovering`;
    expect(row!.recovering).toBe(true);
    await untilReadsReachReplica();
  });
  afterAll(async () => {
    await standby.unsafe("select pg_wal_replay_resume()").catch(() => {});
    await standby.end();
  });

  it("serves lag-tolerant reads: ten lists, counted on the replica", async () => {
    const before = await readCounts();
    for (let index = 0; index < 10; index++)
      expect((await api("/api/payments?perPage=5", { token: tokens.read })).status).toBe(200);
    const after = await readCounts();
    expect(after.replica - before.replica + (after.primary - before.primary)).toBe(10);
    expect(after.replica - before.replica).toBeGreaterThanOrEqual(8);
    // The standby itself saw them: its statistics count the transactions run on it.
    const [stats] = await standby<{ count: string }[]>`
      select xact_commit::text as count from pg_stat_database where datname = current_database()`;
    expect(Number(stats!.count)).toBeGreaterThan(0);
  });

  it("keeps read-your-writes while replay is paused: the new payment is in the list and by id", async () => {
    await standby.unsafe("select pg_wal_replay_pause()");
    try {
      const externalId = `ryw_${Date.now()}`;
      const created = await api("/api/payments", { json: { amount: "9.99", external_id: externalId } });
      expect(created.status).toBe(201);
      const id = Number(created.headers.get("location")!.split("/").at(-1));
      const before = await readCounts();
      const list = await api("/api/payments?perPage=5");
      expect((list.body as { data: Array<{ id: number }> }).data.map((payment) => payment.id)).toContain(id);
      expect((await api(`/api/payments/${id}`)).status).toBe(200);
      const after = await readCounts();
      expect(after.primary - before.primary).toBe(1);
      // The standby really is behind: the payment is not there.
      const [onStandby] = await standby<{ count: number }[]>`
        select count(*)::int as count from payments where external_id = ${externalId}`;
      expect(onStandby!.count).toBe(0);
      // Another merchant, which wrote nothing since, still reads from the replica (lag is within bounds).
      const other = await readCounts();
      expect((await api("/api/payments?perPage=1", { token: tokens.other })).status).toBe(200);
      expect((await readCounts()).replica - other.replica).toBe(1);
    } finally {
      await standby.unsafe("select pg_wal_replay_resume()");
    }
  });

  it("skips a replica that lags more than DATABASE_REPLICA_MAX_LAG_MS, and uses it again once caught up", async () => {
    await standby.unsafe("select pg_wal_replay_pause()");
    try {
      // WAL the standby will not replay, then wait past the allowed lag.
      expect((await api("/api/payments", { json: { amount: "1.00" }, token: tokens.other })).status).toBe(
        201,
      );
      await sleep(maxLagMs + 1500);
      expect(await replicaLagSeconds()).toBeGreaterThan(maxLagMs / 1000);
      const before = await readCounts();
      expect((await api("/api/payments?perPage=1", { token: tokens.read })).status).toBe(200);
      const after = await readCounts();
      expect([after.primary - before.primary, after.replica - before.replica]).toEqual([1, 0]);
    } finally {
      await standby.unsafe("select pg_wal_replay_resume()");
    }
    await untilReadsReachReplica();
  });

  it.skipIf(!standbyCluster)("fails no request while the standby stops and starts again", async () => {
    const [version, cluster] = standbyCluster!.split(" ");
    const statuses: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) statuses.push((await api("/api/payments?perPage=5", { token: tokens.read })).status);
    })();
    await sleep(500);
    execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version!, cluster!, "stop", "-m", "fast"]);
    await sleep(2000);
    execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version!, cluster!, "start"]);
    await sleep(500);
    reading = false;
    await reader;
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await standby.end();
    standby = postgres(replicaUrl!, { max: 1, onnotice: () => {} });
    await untilReadsReachReplica();
  });
});
