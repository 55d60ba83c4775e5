// Live payments through a processor (DESIGN.md, "Processors"), over real HTTP: a server of this file's own talks
// to local stand-ins for Mollie and Stripe (tests/support/processors, written from their API references) through
// the processors' official libraries. The account's live environment is connected to Mollie with a live key and
// its first sandbox to Stripe's test mode, both by the operators' `admin processor:connect`.
import https from "node:https";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { card, postCheckout } from "../support/checkout-client";
import { runCliAsync } from "../support/cli-process";
import { findFreePort } from "../support/free-port";
import { startMollieStandIn, type MollieStandIn } from "../support/processors/mollie";
import { startStripeStandIn, type StripeStandIn } from "../support/processors/stripe";
import { standInTls } from "../support/processors/tls";
import { separateDatabase } from "../support/test-database";
import {
  adminCliEnvironment,
  runAdminAsync,
  startTestServer,
  type TestServer,
  uniqueEmail,
} from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

let mollie: MollieStandIn;
let stripe: StripeStandIn;
let server: TestServer;
let database: Awaited<ReturnType<typeof separateDatabase>> | undefined;
const receiver = new WebhookReceiver();
let listening = false;
const email = uniqueEmail("processors");
const keys = { mollie: "", stripe: "" };
const tokens = { live: "", sandbox: "" };
const environments = { live: 0, sandbox: 0 };

/** The admin CLI, run without blocking this process: it calls the stand-ins this process serves. */
async function admin(env: NodeJS.ProcessEnv, args: string[]): Promise<Record<string, unknown>> {
  const result = await runAdminAsync([...args, "--json"], env);
  if (result.status !== 0) throw new Error(`admin ${args[0]} failed: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  [mollie, stripe] = await Promise.all([startMollieStandIn(), startStripeStandIn()]);
  keys.mollie = mollie.addKey(undefined, "live");
  keys.stripe = stripe.addKey();
  database = await separateDatabase("processors");
  const port = Number(new URL(inject("baseUrl")).port) + 47;
  const processors = {
    MOLLIE_API_URL: mollie.apiEndpoint,
    STRIPE_API_URL: stripe.url,
    PROCESSOR_CA_FILE: mollie.caFile,
  };
  server = await startTestServer(
    "processors",
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
      const cli: NodeJS.ProcessEnv = {
        ...adminCliEnvironment(env),
        ...processors,
        APP_URL: env.APP_URL,
        DATABASE_URL: env.DATABASE_URL,
        PGLITE_DATA_DIR: env.PGLITE_DATA_DIR,
      };
      await admin(cli, ["merchant:create", "--email", email, "--password", "processors-password-1"]);
      await admin(cli, [
        "processor:connect",
        "--email",
        email,
        "--processor",
        "mollie",
        "--key",
        keys.mollie,
      ]);
      await admin(cli, [
        "processor:connect",
        "--email",
        email,
        "--processor",
        "stripe",
        "--key",
        keys.stripe,
        "--sandbox",
        "Test",
      ]);
      tokens.live = String(
        (await admin(cli, ["token:create", "--email", email, "--name", "live", "--live"])).token,
      );
      tokens.sandbox = String(
        (await admin(cli, ["token:create", "--email", email, "--name", "sandbox"])).token,
      );
    },
  );
  const receiverPort = findFreePort();
  await receiver.listen(receiverPort);
  listening = true;
  for (const [name, token] of Object.entries(tokens)) {
    const made = await callApi(server.baseUrl, "/api/webhook-endpoints", {
      token,
      json: { url: `http://127.0.0.1:${receiverPort}/${name}` },
    });
    expect(made.status).toBe(201);
    receiver.expectSecret(`/${name}`, (made.body as { data: { secret: string } }).data.secret);
  }
  const [liveSandbox] = stripe.webhookEndpoints();
  environments.sandbox = Number(/\/webhook\/(\d+)$/.exec(String(liveSandbox!.url))![1]);
  const livePayment = await create(tokens.live, { amount: "1.00", currency: "EUR" });
  environments.live = Number(/\/webhook\/(\d+)$/.exec(String(mollie.payments().at(-1)!.webhookUrl))![1]);
  expect(livePayment.status).toBe(201);
}, 180_000);

afterAll(async () => {
  if (listening) await receiver.close();
  await server?.stop();
  await database?.drop();
  await Promise.all([mollie?.close(), stripe?.close()]);
  // The processors' keys are secrets: nothing the server printed holds one.
  for (const key of Object.values(keys)) expect(server.output()).not.toContain(key);
});

type Payment = Record<string, string | null> & { id: number };

/** A payer's form post to a stand-in's hosted page (HTTPS under the tests' own authority). */
function submitForm(
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

function create(token: string, json: Record<string, unknown>, headers: Record<string, string> = {}) {
  return callApi(server.baseUrl, "/api/payments", {
    token,
    json,
    headers: { Prefer: "return=representation", ...headers },
  });
}

async function payment(token: string, id: number): Promise<Payment> {
  const read = await callApi(server.baseUrl, `/api/payments/${id}`, { token });
  if (read.status !== 200) throw new Error(`GET /api/payments/${id}: ${read.status} ${read.text}`);
  return (read.body as { data: Payment }).data;
}

async function settled(token: string, id: number): Promise<Payment> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const now = await payment(token, id);
    if (now.status !== "pending" || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("Mollie, in live", () => {
  it("makes the payment at Mollie, whose page the payer pays on; Mollie's webhook completes it", async () => {
    const made = await create(tokens.live, { amount: "10.00", currency: "EUR", external_id: "order-m1" });
    expect(made.status).toBe(201);
    const created = (made.body as { data: Payment }).data;
    expect(created).toMatchObject({ status: "pending", processor: "mollie", amount: "10.00" });
    expect(created.processor_payment_id).toMatch(/^tr_/);
    expect(created.checkout_url).toMatch(new RegExp(`^${mollie.url}/checkout/`));
    // The payer chooses "Paid" on Mollie's page, which then sends them back to this platform.
    const paid = await submitForm(created.checkout_url!, { status: "paid" });
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(new RegExp(`^${server.baseUrl}/pay/`));
    const completed = await settled(tokens.live, created.id);
    expect(completed).toMatchObject({ status: "completed", fee: "0.00", net: "10.00", checkout_url: null });
    const hooks = await receiver.waitFor("/live", (all) =>
      all.some((hook) => hook.payload.event === "payment.completed" && hook.payload.data.id === created.id),
    );
    expect(hooks.every((hook) => hook.verified)).toBe(true);
    // The CLI, as a merchant's developer reads it.
    const shown = await runCliAsync(["payments", "show", String(created.id)], {
      apiUrl: server.baseUrl,
      apiKey: tokens.live,
    });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Taken by Mollie: ${created.processor_payment_id}`);
    expect(shown.stdout).toContain("Fee 0.00, net 10.00");
  });

  it("fails a payment Mollie failed, and one that expired there, with their codes", async () => {
    for (const [status, code] of [
      ["failed", "card_declined"],
      ["expired", "expired"],
      ["canceled", "canceled"],
    ] as const) {
      const created = (
        (await create(tokens.live, { amount: "12.00", currency: "EUR" })).body as { data: Payment }
      ).data;
      await mollie.setStatus(created.processor_payment_id!, status);
      expect(await settled(tokens.live, created.id)).toMatchObject({ status: "failed", failure_code: code });
    }
  });

  it("changes nothing for a forged webhook: an id Mollie never made, another environment's, or a payment still open", async () => {
    const open = ((await create(tokens.live, { amount: "3.00", currency: "EUR" })).body as { data: Payment })
      .data;
    const post = (environment: number, body: string, type = "application/x-www-form-urlencoded") =>
      fetch(`${server.baseUrl}/api/processors/mollie/webhook/${environment}`, {
        method: "POST",
        headers: { "Content-Type": type },
        body,
      });
    expect((await post(environments.live, "id=tr_neverMadeHere1")).status).toBe(200);
    expect((await post(environments.sandbox, `id=${open.processor_payment_id}`)).status).toBe(200);
    expect((await post(environments.live, `id=${open.processor_payment_id}`)).status).toBe(200);
    expect((await payment(tokens.live, open.id)).status).toBe("pending");
    // Nor a cancel here: it is canceled at Mollie (409), and stays pending.
    const cancel = await callApi(server.baseUrl, `/api/payments/${open.id}/cancel`, {
      token: tokens.live,
      method: "POST",
    });
    expect(cancel.status).toBe(409);
    expect(cancel.text).toContain("taken by its processor");
    // Nor does this platform's own card page take a card for it: the payer comes back to it, and could try.
    const returnPage = String(
      mollie.payments().find((each) => each.id === open.processor_payment_id)!.redirectUrl,
    );
    const tried = await postCheckout(server.baseUrl, returnPage, "attempts", card("4242424242424242"));
    expect(tried.status).toBe(404);
    expect((await payment(tokens.live, open.id)).status).toBe("pending");
    // Bad input: no id, the wrong type, over 16 KiB.
    expect((await post(environments.live, "payment=1")).status).toBe(400);
    expect((await post(environments.live, '{"id":"tr_1"}', "application/json")).status).toBe(415);
    expect((await post(environments.live, `id=tr_x&pad=${"a".repeat(17_000)}`)).status).toBe(413);
  });

  it("answers 503 with Retry-After when Mollie is down, and makes nothing", async () => {
    const before = mollie.payments().length;
    const count = async () =>
      (
        (await callApi(server.baseUrl, "/api/payments", { token: tokens.live })).body as {
          meta: { total: number };
        }
      ).meta.total;
    const listed = await count();
    mollie.fault("500", 3, "POST");
    const down = await create(tokens.live, { amount: "4.00", currency: "EUR" });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(JSON.stringify(down.body)).not.toContain(keys.mollie);
    mollie.fault("html", 3, "POST");
    expect((await create(tokens.live, { amount: "4.00", currency: "EUR" })).status).toBe(503);
    mollie.fault("undocumented", 1, "POST");
    expect((await create(tokens.live, { amount: "4.00", currency: "EUR" })).status).toBe(503);
    expect(await count()).toBe(listed);
    // The undocumented answer made a payment at the stand-in, which no one here knows of; the others none.
    expect(mollie.payments().length - before).toBeLessThanOrEqual(1);
  });

  it("makes one Mollie payment for an Idempotency-Key sent twice, and after a connection dropped past Mollie's answer", async () => {
    const before = mollie.payments().length;
    const headers = { "Idempotency-Key": `mollie-${Date.now()}` };
    const first = await create(tokens.live, { amount: "5.00", currency: "EUR" }, headers);
    const again = await create(tokens.live, { amount: "5.00", currency: "EUR" }, headers);
    expect(first.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((again.body as { data: Payment }).data.id).toBe((first.body as { data: Payment }).data.id);
    expect(mollie.payments().length - before).toBe(1);

    const dropped = { "Idempotency-Key": `mollie-dropped-${Date.now()}` };
    mollie.fault("drop-after", 1, "POST");
    expect((await create(tokens.live, { amount: "6.00", currency: "EUR" }, dropped)).status).toBe(503);
    const retried = await create(tokens.live, { amount: "6.00", currency: "EUR" }, dropped);
    expect(retried.status).toBe(201);
    expect(mollie.payments().length - before).toBe(2);
    const made = (retried.body as { data: Payment }).data;
    expect(mollie.payments().some((each) => each.id === made.processor_payment_id)).toBe(true);
  });
});

describe("the reconciler", () => {
  it("completes a payment whose webhook never came, by asking Mollie once it is PROCESSOR_RECONCILE_AFTER old", async () => {
    mollie.muteWebhooks(true);
    try {
      const created = (
        (await create(tokens.live, { amount: "9.00", currency: "EUR" })).body as { data: Payment }
      ).data;
      await mollie.setStatus(created.processor_payment_id!, "paid");
      expect((await payment(tokens.live, created.id)).status).toBe("pending");
      expect(await settled(tokens.live, created.id)).toMatchObject({ status: "completed" });
    } finally {
      mollie.muteWebhooks(false);
    }
  });
});

describe("Stripe, in a sandbox on Stripe's test mode", () => {
  it("makes a Checkout Session; the payer pays; the signed webhook completes it with Stripe's fee", async () => {
    const made = await create(tokens.sandbox, { amount: "10.00", currency: "EUR" });
    const created = (made.body as { data: Payment }).data;
    expect(created).toMatchObject({ status: "pending", processor: "stripe" });
    expect(created.processor_payment_id).toMatch(/^cs_test_/);
    expect(created.checkout_url).toMatch(new RegExp(`^${stripe.url}/c/pay/`));
    expect(stripe.pay(created.processor_payment_id!).paid).toBe(true);
    // 1.5% + 25 minor units, the stand-in's price: 0.15 + 0.25.
    expect(await settled(tokens.sandbox, created.id)).toMatchObject({
      status: "completed",
      fee: "0.40",
      net: "9.60",
    });
    await receiver.waitFor("/sandbox", (all) =>
      all.some((hook) => hook.payload.event === "payment.completed" && hook.payload.data.id === created.id),
    );
    const lines = await callApi(server.baseUrl, "/api/balance-transactions", { token: tokens.sandbox });
    const line = (lines.body as { data: Array<Record<string, unknown>> }).data.find(
      (each) => each.type === "payment" && each.payment_id === created.id,
    );
    // Refunded at Stripe, not by the simulator here (not yet built): refused, nothing written.
    const refund = await callApi(server.baseUrl, `/api/payments/${created.id}/refunds`, {
      token: tokens.sandbox,
      json: { amount: "1.00" },
    });
    expect(refund.status).toBe(422);
    expect(refund.text).toContain("refunded in its own dashboard");
    expect(line).toMatchObject({
      amount: "10.00",
      fee: "0.40",
      net: "9.60",
    });
  });

  it("keeps a declined session open for another card, and fails it with the decline's code once it expires", async () => {
    const created = (
      (await create(tokens.sandbox, { amount: "8.00", currency: "EUR" })).body as { data: Payment }
    ).data;
    expect(stripe.pay(created.processor_payment_id!, "4000000000009995").paid).toBe(false);
    await stripe.settled();
    expect((await payment(tokens.sandbox, created.id)).status).toBe("pending");
    stripe.expire(created.processor_payment_id!);
    expect(await settled(tokens.sandbox, created.id)).toMatchObject({
      status: "failed",
      failure_code: "insufficient_funds",
    });
  });

  it("refuses an unsigned, tampered or stale webhook with 400, and changes nothing", async () => {
    const created = (
      (await create(tokens.sandbox, { amount: "7.00", currency: "EUR" })).body as { data: Payment }
    ).data;
    const [endpoint] = stripe.webhookEndpoints();
    const secret = String(endpoint!.secret);
    const payload = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "checkout.session.completed",
      data: { object: { id: created.processor_payment_id, object: "checkout.session" } },
    });
    const url = `${server.baseUrl}/api/processors/stripe/webhook/${environments.sandbox}`;
    const send = (headers: Record<string, string>, body = payload) =>
      fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
    const header = (timestamp?: number) =>
      Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
    expect((await send({})).status).toBe(400);
    expect(
      (await send({ "Stripe-Signature": header() }, payload.replace("completed", "expired"))).status,
    ).toBe(400);
    expect((await send({ "Stripe-Signature": header() }, `${payload} `)).status).toBe(400);
    expect((await send({ "Stripe-Signature": header(Math.floor(Date.now() / 1000) - 600) })).status).toBe(
      400,
    );
    // A signed one is heard, but the session's state is asked of Stripe: still open, so still pending.
    expect((await send({ "Stripe-Signature": header() })).status).toBe(200);
    expect((await payment(tokens.sandbox, created.id)).status).toBe("pending");
  });

  it("answers 503 when Stripe answers with HTML, and makes nothing", async () => {
    const before = stripe.sessions().length;
    stripe.fault("html", 3, "POST");
    const down = await create(tokens.sandbox, { amount: "4.00", currency: "EUR" });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(stripe.sessions().length).toBe(before);
  });
});
