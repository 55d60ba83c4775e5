// The Stripe stand-in, driven by Stripe's official Node library: what the platform's tests rely on it for.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, type StripeStandIn } from "@/tests/support/processors/stripe";
import { standInTls } from "@/tests/support/processors/tls";

interface Delivery {
  body: string;
  signature: string;
}

let standIn: StripeStandIn;
let receiver: http.Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];
let key: string;
let stripe: Stripe;
let secret: string;

const agent = new https.Agent({ ca: [...tls.rootCertificates, standInTls().ca], keepAlive: true });

function client(apiKey: string, config: Partial<Stripe.StripeConfig> = {}) {
  return new Stripe(apiKey, {
    host: "127.0.0.1",
    port: standIn.port,
    protocol: "https",
    httpAgent: agent,
    maxNetworkRetries: 0,
    ...config,
  });
}

async function waitFor<T>(what: string, probe: () => T | undefined, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function delivered(type: string, objectId: string) {
  return waitFor(`${type} for ${objectId}`, () =>
    deliveries.find((d) => {
      const event = JSON.parse(d.body) as { type: string; data: { object: { id: string } } };
      return event.type === type && event.data.object.id === objectId;
    }),
  );
}

const lineItem = (unitAmount: number, quantity = 1) => ({
  price_data: { currency: "eur", unit_amount: unitAmount, product_data: { name: "Ticket" } },
  quantity,
});

async function paidSession(amount: number) {
  const session = await stripe.checkout.sessions.create({
    mode: "payment",
    line_items: [lineItem(amount)],
    success_url: "https://shop.example/done?session={CHECKOUT_SESSION_ID}",
  });
  const paid = standIn.pay(session.id);
  return { session, intentId: paid.paymentIntent };
}

function page(url: string, form?: Record<string, string>) {
  return new Promise<{ status: number; location?: string; html: string }>((resolve, reject) => {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const request = https.request(url, {
      method: form ? "POST" : "GET",
      agent,
      headers: body ? { "content-type": "application/x-www-form-urlencoded" } : {},
    });
    request.on("response", (response) => {
      let html = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (html += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, location: response.headers.location, html }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

beforeAll(async () => {
  standIn = await startStripeStandIn();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      deliveries.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: String(req.headers["stripe-signature"]),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/stripe`;
  key = standIn.addKey();
  stripe = client(key);
  const endpoint = await stripe.webhookEndpoints.create({ url: receiverUrl, enabled_events: ["*"] });
  expect(endpoint.secret).toMatch(/^whsec_/);
  secret = endpoint.secret!;
});

afterAll(async () => {
  await standIn?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  agent.destroy();
});

describe("Stripe stand-in with the official library", () => {
  it("refuses an unknown key, and keeps each key's objects to itself", async () => {
    const wrong = client("sk_test_notregistered1234abcd");
    const error = await wrong.balance.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).message).toMatch(
      /Invalid API Key provided: sk_test_\*+abcd$/,
    );

    const balance = await stripe.balance.retrieve();
    expect(balance.object).toBe("balance");
    const session = await stripe.checkout.sessions.create({ mode: "payment", line_items: [lineItem(500)] });
    const other = client(standIn.addKey());
    const missing = await other.checkout.sessions.retrieve(session.id).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((missing as Stripe.errors.StripeError).code).toBe("resource_missing");
    expect((missing as Stripe.errors.StripeError).statusCode).toBe(404);
  });

  it("validates a session's params as Stripe does", async () => {
    const error = await stripe.checkout.sessions
      .create({
        mode: "payment",
        line_items: [{ price_data: { currency: "eur", product_data: { name: "x" } }, quantity: 1 }],
      })
      .catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      code: "parameter_missing",
      param: "line_items[0][price_data][unit_amount]",
    });
  });

  it("takes a payment: session, hosted-page payment, PaymentIntent with its balance transaction, signed webhook", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [lineItem(1250, 2)],
      success_url: "https://shop.example/done?session={CHECKOUT_SESSION_ID}",
      cancel_url: "https://shop.example/cart",
      client_reference_id: "order-17",
      metadata: { order: "17" },
      payment_intent_data: { metadata: { order: "17" } },
    });
    expect(session).toMatchObject({
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      amount_total: 2500,
      currency: "eur",
      payment_intent: null,
      client_reference_id: "order-17",
      metadata: { order: "17" },
      livemode: false,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${standIn.url}/c/pay/${session.id}`);

    const paid = standIn.pay(session.id, "4242424242424242");
    expect(paid.redirect).toBe(`https://shop.example/done?session=${session.id}`);

    const after = await stripe.checkout.sessions.retrieve(session.id);
    expect(after).toMatchObject({
      status: "complete",
      payment_status: "paid",
      payment_intent: paid.paymentIntent,
    });
    const intent = await stripe.paymentIntents.retrieve(paid.paymentIntent, {
      expand: ["latest_charge.balance_transaction"],
    });
    expect(intent).toMatchObject({ status: "succeeded", amount: 2500, metadata: { order: "17" } });
    const charge = intent.latest_charge as Stripe.Charge;
    const txn = charge.balance_transaction as Stripe.BalanceTransaction;
    expect(txn.id).toMatch(/^txn_/);
    expect(txn.fee).toBe(Math.round(2500 * 0.015) + 25);
    expect(txn.fee + txn.net).toBe(txn.amount);
    expect(txn.amount).toBe(2500);

    const completed = await delivered("checkout.session.completed", session.id);
    const event = stripe.webhooks.constructEvent(completed.body, completed.signature, secret);
    expect(event.type).toBe("checkout.session.completed");
    expect((event.data.object as Stripe.Checkout.Session).payment_intent).toBe(paid.paymentIntent);
    const tampered = completed.body.replace('"paid"', '"unpaid"');
    expect(tampered).not.toBe(completed.body);
    expect(() => stripe.webhooks.constructEvent(tampered, completed.signature, secret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    await delivered("payment_intent.succeeded", paid.paymentIntent);
    const fetched = await stripe.events.retrieve(event.id);
    expect(fetched.type).toBe("checkout.session.completed");
  });

  it("declines a card and leaves the session open", async () => {
    const session = await stripe.checkout.sessions.create({ mode: "payment", line_items: [lineItem(900)] });
    const declined = standIn.pay(session.id, "4000000000000002");
    expect(declined).toMatchObject({ paid: false, message: "Your card was declined." });
    const intent = await stripe.paymentIntents.retrieve(declined.paymentIntent);
    expect(intent.status).toBe("requires_payment_method");
    expect(intent.last_payment_error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
    });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    const failed = await delivered("payment_intent.payment_failed", declined.paymentIntent);
    expect(stripe.webhooks.constructEvent(failed.body, failed.signature, secret).type).toBe(
      "payment_intent.payment_failed",
    );
    expect(standIn.pay(session.id, "4000000000009995")).toMatchObject({ paid: false });
    expect(
      (await stripe.paymentIntents.retrieve(declined.paymentIntent)).last_payment_error?.decline_code,
    ).toBe("insufficient_funds");
  });

  it("refunds partly, then the rest, and refuses more than remains", async () => {
    const { intentId } = await paidSession(1000);
    const tooMuch = await stripe.refunds
      .create({ payment_intent: intentId, amount: 1001 })
      .catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ code: "amount_too_large", param: "amount" });

    const partial = await stripe.refunds.create({
      payment_intent: intentId,
      amount: 400,
      reason: "requested_by_customer",
    });
    expect(partial).toMatchObject({ status: "pending", amount: 400 });
    await delivered("refund.created", partial.id);
    standIn.setRefundStatus(partial.id, "succeeded");
    expect((await stripe.refunds.retrieve(partial.id)).status).toBe("succeeded");
    const updated = await delivered("refund.updated", partial.id);
    expect(JSON.parse(updated.body)).toMatchObject({ data: { previous_attributes: { status: "pending" } } });

    const rest = await stripe.refunds.create({ payment_intent: intentId });
    expect(rest.amount).toBe(600);
    const charge = await stripe.charges.retrieve(rest.charge as string);
    expect(charge).toMatchObject({ amount_refunded: 1000, refunded: true });
    const again = await stripe.refunds
      .create({ payment_intent: intentId, amount: 1 })
      .catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(again).toMatchObject({ code: "charge_already_refunded" });

    standIn.setRefundStatus(rest.id, "failed");
    const failed = await stripe.refunds.retrieve(rest.id);
    expect(failed.status).toBe("failed");
    expect(failed.failure_reason).toBe("expired_or_canceled_card");
    await delivered("refund.failed", rest.id);
    expect((await stripe.charges.retrieve(rest.charge as string)).amount_refunded).toBe(400);
  });

  it("replays an idempotent create, and refuses the key with other params", async () => {
    const before = standIn.sessions().length;
    const params = { mode: "payment" as const, line_items: [lineItem(700)] };
    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: "order-700" });
    const second = await stripe.checkout.sessions.create(params, { idempotencyKey: "order-700" });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(standIn.sessions().length).toBe(before + 1);
    const misuse = await stripe.checkout.sessions
      .create({ ...params, client_reference_id: "other" }, { idempotencyKey: "order-700" })
      .catch((e: unknown) => e);
    expect(misuse).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("survives a connection dropped after the work: the retry with the same key makes one session", async () => {
    const before = standIn.sessions().length;
    // The library retries a reset connection once even with maxNetworkRetries 0; drop both tries.
    standIn.fault("drop-after", 2);
    const params = { mode: "payment" as const, line_items: [lineItem(300)] };
    const lost = await stripe.checkout.sessions
      .create(params, { idempotencyKey: "drop-1" })
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(standIn.sessions().length).toBe(before + 1);
    const retried = await stripe.checkout.sessions.create(params, { idempotencyKey: "drop-1" });
    expect(standIn.sessions().length).toBe(before + 1);
    expect(retried.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(standIn.requests.filter((r) => r.idempotencyKey === "drop-1")).toHaveLength(3);
  });

  it("surfaces Stripe's own 500 as StripeAPIError", async () => {
    standIn.fault("500");
    const error = await stripe.balance.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(500);
    expect((await stripe.balance.retrieve()).object).toBe("balance");
  });

  it("expires a session and tells the endpoint", async () => {
    const session = await stripe.checkout.sessions.create({ mode: "payment", line_items: [lineItem(100)] });
    standIn.expire(session.id);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: "expired",
      url: null,
    });
    await delivered("checkout.session.expired", session.id);
  });

  it("serves a hosted page whose form declines and then pays", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [lineItem(4200)],
      success_url: "https://shop.example/thanks/{CHECKOUT_SESSION_ID}",
    });
    const form = await page(session.url!);
    expect(form.status).toBe(200);
    expect(form.html).toContain('<label for="cardNumber">Card number</label>');
    expect(form.html).toContain('<button type="submit">Pay</button>');
    const declined = await page(session.url!, { cardNumber: "4000 0000 0000 0069" });
    expect(declined.status).toBe(402);
    expect(declined.html).toContain("Your card has expired.");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    const paid = await page(session.url!, { cardNumber: "4242 4242 4242 4242" });
    expect(paid).toMatchObject({ status: 303, location: `https://shop.example/thanks/${session.id}` });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: "complete",
      url: null,
    });
  });

  it("answers the other faults as asked: a proxy's HTML page, an unexpected body, a dropped request", async () => {
    standIn.fault("html");
    const html = await stripe.balance.retrieve().catch((e: unknown) => e);
    expect(html).toBeInstanceOf(Stripe.errors.StripeAPIError);
    standIn.fault("undocumented");
    expect((await stripe.balance.retrieve()).object).toBe("surprise");
    const before = standIn.requests.length;
    standIn.fault("drop");
    // The library retries a reset connection once by itself; the retry is answered.
    expect((await stripe.balance.retrieve()).object).toBe("balance");
    expect(standIn.requests.length).toBe(before + 2);
  });
});
