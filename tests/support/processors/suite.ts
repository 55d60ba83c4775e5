// One server of a suite's own that talks to local stand-ins for Mollie and Stripe (written from their API
// references) through the processors' official libraries. The account's live environment is connected to
// Mollie with a live key and its first sandbox to Stripe's test mode, both by the operators' `admin
// processor:connect`; a webhook endpoint of each environment delivers to the suite's receiver.
import https from "node:https";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { callApi } from "../api-client";
import { findFreePort } from "../free-port";
import { separateDatabase } from "../test-database";
import {
  adminCliEnvironment,
  runAdminAsync,
  startTestServer,
  type TestServer,
  uniqueEmail,
} from "../test-server";
import { WebhookReceiver } from "../webhook-receiver";
import { startMollieStandIn, type MollieStandIn } from "./mollie";
import { startStripeStandIn, type StripeStandIn } from "./stripe";
import { standInTls } from "./tls";

export type Payment = Record<string, string | null> & { id: number };

export type ProcessorsSuite = {
  mollie: MollieStandIn;
  stripe: StripeStandIn;
  server: TestServer;
  receiver: WebhookReceiver;
  keys: { mollie: string; stripe: string };
  tokens: { live: string; sandbox: string };
  /** The environments' ids, as their processors' webhook paths name them. */
  environments: { live: number; sandbox: number };
  /** The operators' CLI on the server's database, with the stand-ins' addresses (PGlite's only before it starts). */
  admin: (args: string[]) => Promise<Record<string, unknown>>;
  create: (
    token: string,
    json: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => ReturnType<typeof callApi>;
  payment: (token: string, id: number) => Promise<Payment>;
  /** The payment once its processor has moved it from pending (or as it is after 20 s). */
  settled: (token: string, id: number) => Promise<Payment>;
};

/** The admin CLI, run without blocking this process: it calls the stand-ins this process serves. */
async function runAdmin(env: NodeJS.ProcessEnv, args: string[]): Promise<Record<string, unknown>> {
  const result = await runAdminAsync([...args, "--json"], env);
  if (result.status !== 0) throw new Error(`admin ${args[0]} failed: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** A payer's form post to a stand-in's hosted page (HTTPS under the tests' own authority). */
export function submitForm(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; location?: string }> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: "POST",
        ca: standInTls().ca,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode!, location: response.headers.location }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Polls `read` until `done` holds of what it returns, or 20 s have passed; returns the last read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const now = await read();
    if (done(now) || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Registers the suite's beforeAll and afterAll; its fields are filled in by the time the tests run. */
export function processorsSuite(label: string, portOffset: number): ProcessorsSuite {
  const email = uniqueEmail(label);
  const suite = {
    receiver: new WebhookReceiver(),
    keys: { mollie: "", stripe: "" },
    tokens: { live: "", sandbox: "" },
    environments: { live: 0, sandbox: 0 },
  } as ProcessorsSuite;
  let cli = {} as NodeJS.ProcessEnv;
  let database: Awaited<ReturnType<typeof separateDatabase>> | undefined;
  let listening = false;
  suite.admin = (args) => runAdmin(cli, args);
  suite.create = (token, json, headers = {}) =>
    callApi(suite.server.baseUrl, "/api/payments", {
      token,
      json,
      headers: { Prefer: "return=representation", ...headers },
    });
  suite.payment = async (token, id) => {
    const read = await callApi(suite.server.baseUrl, `/api/payments/${id}`, { token });
    if (read.status !== 200) throw new Error(`GET /api/payments/${id}: ${read.status} ${read.text}`);
    return (read.body as { data: Payment }).data;
  };
  suite.settled = (token, id) =>
    until(
      () => suite.payment(token, id),
      (now) => now.status !== "pending",
    );

  beforeAll(async () => {
    const [mollie, stripe] = await Promise.all([startMollieStandIn(), startStripeStandIn()]);
    Object.assign(suite, { mollie, stripe });
    suite.keys.mollie = mollie.addKey(undefined, "live");
    suite.keys.stripe = stripe.addKey();
    database = await separateDatabase(label);
    const port = Number(new URL(inject("baseUrl")).port) + portOffset;
    const processors = {
      MOLLIE_API_URL: mollie.apiEndpoint,
      STRIPE_API_URL: stripe.url,
      PROCESSOR_CA_FILE: mollie.caFile,
    };
    suite.server = await startTestServer(
      label,
      port,
      // The reconciler asks about a payment 3 s old (a webhook that never came); the tests poll payments until
      // their processor has moved them, above the default 30 requests a minute.
      {
        WORKER_MODE: "inline",
        PROCESSOR_RECONCILE_AFTER: "3s",
        API_RATE_LIMIT_PER_MINUTE: "100000",
        ...processors,
        ...(database?.url ? { DATABASE_URL: database.url } : {}),
      },
      async (env) => {
        // The server's database (PostgreSQL, or its PGlite directory before the server holds it) and origin.
        cli = {
          ...adminCliEnvironment(env),
          ...processors,
          APP_URL: env.APP_URL,
          DATABASE_URL: env.DATABASE_URL,
          PGLITE_DATA_DIR: env.PGLITE_DATA_DIR,
        };
        await suite.admin(["merchant:create", "--email", email, "--password", "processors-password-1"]);
        const connect = ["processor:connect", "--email", email, "--processor"];
        await suite.admin([...connect, "mollie", "--key", suite.keys.mollie]);
        await suite.admin([...connect, "stripe", "--key", suite.keys.stripe, "--sandbox", "Test"]);
        const token = async (name: string, ...flags: string[]) =>
          String((await suite.admin(["token:create", "--email", email, "--name", name, ...flags])).token);
        suite.tokens.live = await token("live", "--live");
        suite.tokens.sandbox = await token("sandbox");
      },
    );
    const receiverPort = findFreePort();
    await suite.receiver.listen(receiverPort);
    listening = true;
    for (const [name, token] of Object.entries(suite.tokens)) {
      const made = await callApi(suite.server.baseUrl, "/api/webhook-endpoints", {
        token,
        json: { url: `http://127.0.0.1:${receiverPort}/${name}` },
      });
      expect(made.status).toBe(201);
      suite.receiver.expectSecret(`/${name}`, (made.body as { data: { secret: string } }).data.secret);
    }
    const [sandboxEndpoint] = stripe.webhookEndpoints();
    suite.environments.sandbox = Number(/\/webhook\/(\d+)$/.exec(String(sandboxEndpoint!.url))![1]);
    const livePayment = await suite.create(suite.tokens.live, { amount: "1.00", currency: "EUR" });
    expect(livePayment.status).toBe(201);
    suite.environments.live = Number(
      /\/webhook\/(\d+)$/.exec(String(mollie.payments().at(-1)!.webhookUrl))![1],
    );
  }, 180_000);

  afterAll(async () => {
    if (listening) await suite.receiver.close();
    await suite.server?.stop();
    await database?.drop();
    await Promise.all([suite.mollie?.close(), suite.stripe?.close()]);
    // The processors' keys are secrets: nothing the server printed holds one.
    for (const key of Object.values(suite.keys)) expect(suite.server.output()).not.toContain(key);
  });
  return suite;
}
