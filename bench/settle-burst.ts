// A burst of one merchant's settles over real HTTP (issue: one call per write on Citus): BENCH_BURST (24)
// pending payments of one merchant, created one after another, then settled all at once through
// POST /api/test-helpers/payments/{id}/settle, BENCH_BURST_ROUNDS (5) times. Prints each burst's wall time
// (first request sent to last answer), the median, and every answer that was not a 200 (a refusal, a 503 past
// the API's deadline). Needs a production build. On PostgreSQL BENCH_DATABASE_URL is dropped and recreated;
// on Citus (BENCH_CITUS=1) `scripts/citus-cluster.sh up <name>` makes it fresh first, and
// BENCH_ON_MERCHANTS_WORKER=1 gives the server the merchant's worker ("Any node").
import { randomBytes } from "node:crypto";
import { merchantWorkerPort } from "./citus-setup";
import { appServerEnv, freshDatabase, percentile, startScript } from "./harness";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_burst";
const burst = Number(process.env.BENCH_BURST ?? 24);
const rounds = Number(process.env.BENCH_BURST_ROUNDS ?? 5);
process.env.DATABASE_URL = databaseUrl;
process.env.ENCRYPTION_KEYS ??= randomBytes(32).toString("base64");
process.env.AUTH_SECRET ??= randomBytes(33).toString("base64");
await freshDatabase(databaseUrl);
const { getDb, migrateDatabase, closeDatabase } = await import("@/db/client");
const { createMerchantWithOwner } = await import("@/lib/accounts/accounts");
const { createApiToken } = await import("@/lib/tokens/tokens");
await migrateDatabase();
const db = getDb();
const { merchantId } = await createMerchantWithOwner(db, {
  name: "Burst",
  email: `burst-${randomBytes(4).toString("hex")}@example.test`,
  password: "bench passphrase",
});
const { token } = await createApiToken(db, merchantId, { name: "burst", scope: "write" });
// The burst's requests and the creations before it are more than the default 30 a minute.
const { sql } = await import("drizzle-orm");
await db.execute(sql`update merchants set rate_limit_per_minute = 100000 where id = ${merchantId}`);
// BENCH_ON_MERCHANTS_WORKER=1 (Citus, "Any node"): the server is given the worker that holds the merchant's
// shards instead of the coordinator.
let serverUrl = databaseUrl;
if (process.env.BENCH_ON_MERCHANTS_WORKER === "1") {
  const url = new URL(databaseUrl);
  url.port = String(await merchantWorkerPort(databaseUrl, merchantId));
  serverUrl = url.toString();
}
await closeDatabase();

const port = 4400;
const server = await startScript(
  "scripts/server.ts",
  appServerEnv(serverUrl, port, {
    ENCRYPTION_KEYS: process.env.ENCRYPTION_KEYS,
    AUTH_SECRET: process.env.AUTH_SECRET,
    DATABASE_POOL_MAX: String(burst),
  }),
  port,
  "/api/openapi.json",
);
const call = (path: string, body: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const times: number[] = [];
const refused: string[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const ids: number[] = [];
    for (let index = 0; index < burst; index++) {
      const created = await call("/api/payments", { amount: "10.00", currency: "EUR" });
      const location = created.headers.get("location");
      if (created.status !== 201 || !location)
        throw new Error(`A creation was answered ${created.status}: ${await created.text()}`);
      ids.push(Number(location.split("/").at(-1)));
    }
    const started = performance.now();
    const answers = await Promise.all(
      ids.map((id) => call(`/api/test-helpers/payments/${id}/settle`, { outcome: "completed" })),
    );
    times.push(performance.now() - started);
    for (const answer of answers)
      if (answer.status !== 200) refused.push(`${answer.status} ${await answer.text()}`);
    console.log(`round ${round}: ${burst} settles in ${times.at(-1)!.toFixed(0)} ms`);
  }
} finally {
  await server.stop();
}
console.log(
  `\n${burst} settles of one merchant at once, ${rounds} bursts on ${new URL(serverUrl).host}: median ` +
    `${percentile(times, 50).toFixed(0)} ms (${times.map((time) => time.toFixed(0)).join(", ")}); ` +
    `answers other than 200: ${refused.length === 0 ? "none" : refused.join("; ")}`,
);
