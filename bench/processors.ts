// `npm run bench:processors` (issue 68, DESIGN.md "Processors"): `POST /api/payments` over real HTTP on
// PostgreSQL in three environments of one account, taken in turn, BENCH_RUNS (300) each after a warm-up:
// a sandbox on the simulator, live on Mollie's stand-in and a sandbox on Stripe's (tests/support/processors,
// served from this process). Beside each processor path, the same create sent to the stand-in straight from its
// official library: the processor's own time. The platform's share of a processor payment is the difference,
// and its server CPU a request against the simulator's. Needs a production build (`npm run build`).
import https from "node:https";
import { rootCertificates } from "node:tls";
import { createMollieClient } from "@mollie/api-client";
import Stripe from "stripe";
import { serverCpuMicros } from "./cpu";
import {
  appServerEnv,
  freshDatabase,
  markdownTable,
  percentile,
  SERVER_NODE_FLAGS,
  startScript,
} from "./harness";
import { startMollieStandIn } from "../tests/support/processors/mollie";
import { startStripeStandIn } from "../tests/support/processors/stripe";
import { standInTls } from "../tests/support/processors/tls";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_processors";
const runs = Number(process.env.BENCH_RUNS ?? 300);
const port = 4700 + Math.floor(Math.random() * 90);
const [mollie, stripe] = await Promise.all([startMollieStandIn(), startStripeStandIn()]);
const settings = {
  ENCRYPTION_KEYS: (await import("node:crypto")).randomBytes(32).toString("base64"),
  MOLLIE_API_URL: mollie.apiEndpoint,
  STRIPE_API_URL: stripe.url,
  PROCESSOR_CA_FILE: mollie.caFile,
  API_RATE_LIMIT_PER_MINUTE: "100000000",
  APP_URL: `http://127.0.0.1:${port}`,
};
process.env.DATABASE_URL = databaseUrl;
Object.assign(process.env, settings);
await freshDatabase(databaseUrl);

// The account, its environments, their processors and keys, made by the domain functions in this process.
const { getDb, migrateDatabase, closeDatabase } = await import("@/db/client");
await migrateDatabase();
const db = getDb();
const { createMerchantWithOwner } = await import("@/lib/accounts/accounts");
const { createSandbox, liveEnvironmentOf } = await import("@/lib/environments/environments");
const { connectProcessor } = await import("@/lib/processors/connections");
const { createApiToken } = await import("@/lib/tokens/tokens");
const operator = { actor: "bench", ip: null, userAgent: null };
const account = await createMerchantWithOwner(db, {
  email: "bench-processors@example.test",
  password: "bench passphrase",
  name: "Bench processors",
});
const live = await liveEnvironmentOf(db, account.merchantId);
const stripeSandbox = (await createSandbox(db, account.merchantId, { name: "Stripe" }, operator)).sandbox.id;
const keys = { mollie: mollie.addKey(undefined, "live"), stripe: stripe.addKey() };
await connectProcessor(db, live, { processor: "mollie", key: keys.mollie }, operator);
await connectProcessor(db, stripeSandbox, { processor: "stripe", key: keys.stripe }, operator);
const token = async (merchantId: number) =>
  (await createApiToken(db, merchantId, { name: "bench", scope: "write" })).token;
const tokens = {
  simulator: await token(account.merchantId),
  mollie: await token(live),
  stripe: await token(stripeSandbox),
};
await closeDatabase();

const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port, settings),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);

const amount = { amount: "10.00", currency: "EUR" };
async function create(bearer: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/payments`, {
    method: "POST",
    headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
    body: JSON.stringify(amount),
  });
  await response.text();
  if (response.status !== 201) throw new Error(`POST /api/payments: ${response.status}`);
  return performance.now() - started;
}

// The processors straight from their libraries, as the platform calls them.
const ca = standInTls().ca;
const mollieClient = createMollieClient({
  apiKey: keys.mollie,
  apiEndpoint: mollie.apiEndpoint,
  caCertificates: ca,
});
const stripeClient = new Stripe(keys.stripe, {
  host: "127.0.0.1",
  port: stripe.port,
  protocol: "https",
  httpAgent: new https.Agent({ keepAlive: true, ca: [...rootCertificates, ca] }),
});
const direct = {
  mollie: async () => {
    const started = performance.now();
    await mollieClient.payments.create({
      amount: { currency: "EUR", value: "10.00" },
      description: "Bench",
      redirectUrl: `${server.baseUrl}/pay/x`,
      webhookUrl: `${server.baseUrl}/api/processors/mollie/webhook/${live}`,
    });
    return performance.now() - started;
  },
  stripe: async () => {
    const started = performance.now();
    await stripeClient.checkout.sessions.create({
      mode: "payment",
      line_items: [
        { quantity: 1, price_data: { currency: "eur", unit_amount: 1000, product_data: { name: "Bench" } } },
      ],
      success_url: `${server.baseUrl}/pay/x`,
      cancel_url: `${server.baseUrl}/pay/x`,
    });
    return performance.now() - started;
  },
};

type Path = "simulator" | "mollie" | "stripe";
const paths: Path[] = ["simulator", "mollie", "stripe"];
const times: Record<Path | "mollie direct" | "stripe direct", number[]> = {
  simulator: [],
  mollie: [],
  stripe: [],
  "mollie direct": [],
  "stripe direct": [],
};
const cpu: Record<Path, number> = { simulator: 0, mollie: 0, stripe: 0 };
try {
  for (const path of paths) for (let index = 0; index < 20; index++) await create(tokens[path]);
  for (let index = 0; index < 20; index++) await Promise.all([direct.mollie(), direct.stripe()]);
  // In turn, a request of each at a time, so the machine's drift falls on every path alike.
  for (let index = 0; index < runs; index++) {
    for (const path of paths) {
      const before = serverCpuMicros(server.process.pid!);
      times[path].push(await create(tokens[path]));
      cpu[path] += serverCpuMicros(server.process.pid!) - before;
    }
    times["mollie direct"].push(await direct.mollie());
    times["stripe direct"].push(await direct.stripe());
  }
} finally {
  await server.stop();
  await Promise.all([mollie.close(), stripe.close()]);
}

const p50 = (name: keyof typeof times) => percentile(times[name], 50);
const rows = paths.map((path) => ({
  "POST /api/payments": path === "simulator" ? "a sandbox, the simulator" : `${path}'s stand-in`,
  Runs: runs,
  "p50 ms": p50(path).toFixed(1),
  "p95 ms": percentile(times[path], 95).toFixed(1),
  "the processor alone, p50 ms": path === "simulator" ? "—" : p50(`${path} direct`).toFixed(1),
  "the platform's share, p50 ms": (path === "simulator"
    ? p50(path)
    : p50(path) - p50(`${path} direct`)
  ).toFixed(1),
  "server CPU µs a request": Math.round(cpu[path] / runs),
}));
console.log(`\n${markdownTable(rows)}`);
