// Live payments through a processor (DESIGN.md, "Processors"), over real HTTP: a server of this file's own talks
// to local stand-ins for Mollie and Stripe through their official libraries (tests/support/processors/suite.ts).
// Refunds at the processors are processor-refunds.test.ts's.
import postgres from "postgres";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { card, postCheckout } from "../support/checkout-client";
import { runCliAsync } from "../support/cli-process";
import { type Payment, processorsSuite, submitForm } from "../support/processors/suite";

const suite = processorsSuite("processors", 47);
const { receiver, keys, tokens, environments, create, payment, settled } = suite;

describe("Mollie, in live", () => {
  it("makes the payment at Mollie, whose page the payer pays on; Mollie's webhook completes it", async () => {
    const made = await create(tokens.live, { amount: "10.00", currency: "EUR", external_id: "order-m1" });
    expect(made.status).toBe(201);
    const created = (made.body as { data: Payment }).data;
    expect(created).toMatchObject({ status: "pending", processor: "mollie", amount: "10.00" });
    expect(created.processor_payment_id).toMatch(/^tr_/);
    expect(created.checkout_url).toMatch(new RegExp(`^${suite.mollie.url}/checkout/`));
    // The payer chooses "Paid" on Mollie's page, which then sends them back to this platform.
    const paid = await submitForm(created.checkout_url!, { status: "paid" });
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(new RegExp(`^${suite.server.baseUrl}/pay/`));
    const completed = await settled(tokens.live, created.id);
    expect(completed).toMatchObject({ status: "completed", fee: "0.00", net: "10.00", checkout_url: null });
    const hooks = await receiver.waitFor("/live", (all) =>
      all.some((hook) => hook.payload.event === "payment.completed" && hook.payload.data.id === created.id),
    );
    expect(hooks.every((hook) => hook.verified)).toBe(true);
    // The CLI, as a merchant's developer reads it.
    const shown = await runCliAsync(["payments", "show", String(created.id)], {
      apiUrl: suite.server.baseUrl,
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
      await suite.mollie.setStatus(created.processor_payment_id!, status);
      expect(await settled(tokens.live, created.id)).toMatchObject({ status: "failed", failure_code: code });
    }
  });

  it("changes nothing for a forged webhook: an id Mollie never made, another environment's, or a payment still open", async () => {
    const open = ((await create(tokens.live, { amount: "3.00", currency: "EUR" })).body as { data: Payment })
      .data;
    const post = (environment: number, body: string, type = "application/x-www-form-urlencoded") =>
      fetch(`${suite.server.baseUrl}/api/processors/mollie/webhook/${environment}`, {
        method: "POST",
        headers: { "Content-Type": type },
        body,
      });
    expect((await post(environments.live, "id=tr_neverMadeHere1")).status).toBe(200);
    expect((await post(environments.sandbox, `id=${open.processor_payment_id}`)).status).toBe(200);
    expect((await post(environments.live, `id=${open.processor_payment_id}`)).status).toBe(200);
    expect((await payment(tokens.live, open.id)).status).toBe("pending");
    // Nor a cancel here: it is canceled at Mollie (409), and stays pending.
    const cancel = await callApi(suite.server.baseUrl, `/api/payments/${open.id}/cancel`, {
      token: tokens.live,
      method: "POST",
    });
    expect(cancel.status).toBe(409);
    expect(cancel.text).toContain("taken by its processor");
    // Nor does this platform's own card page take a card for it: the payer comes back to it, and could try.
    const returnPage = String(
      suite.mollie.payments().find((each) => each.id === open.processor_payment_id)!.redirectUrl,
    );
    const tried = await postCheckout(suite.server.baseUrl, returnPage, "attempts", card("4242424242424242"));
    expect(tried.status).toBe(404);
    expect((await payment(tokens.live, open.id)).status).toBe("pending");
    // Bad input: no id, the wrong type, over 16 KiB.
    expect((await post(environments.live, "payment=1")).status).toBe(400);
    expect((await post(environments.live, '{"id":"tr_1"}', "application/json")).status).toBe(415);
    expect((await post(environments.live, `id=tr_x&pad=${"a".repeat(17_000)}`)).status).toBe(413);
  });

  it("answers 503 with Retry-After when Mollie is down, and makes nothing", async () => {
    const before = suite.mollie.payments().length;
    const count = async () =>
      (
        (await callApi(suite.server.baseUrl, "/api/payments", { token: tokens.live })).body as {
          meta: { total: number };
        }
      ).meta.total;
    const listed = await count();
    suite.mollie.fault("500", 3, "POST");
    const down = await create(tokens.live, { amount: "4.00", currency: "EUR" });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(JSON.stringify(down.body)).not.toContain(keys.mollie);
    suite.mollie.fault("html", 3, "POST");
    expect((await create(tokens.live, { amount: "4.00", currency: "EUR" })).status).toBe(503);
    suite.mollie.fault("undocumented", 1, "POST");
    expect((await create(tokens.live, { amount: "4.00", currency: "EUR" })).status).toBe(503);
    expect(await count()).toBe(listed);
    // The undocumented answer made a payment at the stand-in, which no one here knows of; the others none.
    expect(suite.mollie.payments().length - before).toBeLessThanOrEqual(1);
  });

  it("makes one Mollie payment for an Idempotency-Key sent twice, and after a connection dropped past Mollie's answer", async () => {
    const before = suite.mollie.payments().length;
    const headers = { "Idempotency-Key": `mollie-${Date.now()}` };
    const first = await create(tokens.live, { amount: "5.00", currency: "EUR" }, headers);
    const again = await create(tokens.live, { amount: "5.00", currency: "EUR" }, headers);
    expect(first.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((again.body as { data: Payment }).data.id).toBe((first.body as { data: Payment }).data.id);
    expect(suite.mollie.payments().length - before).toBe(1);

    const dropped = { "Idempotency-Key": `mollie-dropped-${Date.now()}` };
    suite.mollie.fault("drop-after", 1, "POST");
    expect((await create(tokens.live, { amount: "6.00", currency: "EUR" }, dropped)).status).toBe(503);
    const retried = await create(tokens.live, { amount: "6.00", currency: "EUR" }, dropped);
    expect(retried.status).toBe(201);
    expect(suite.mollie.payments().length - before).toBe(2);
    const made = (retried.body as { data: Payment }).data;
    expect(suite.mollie.payments().some((each) => each.id === made.processor_payment_id)).toBe(true);
  });

  // Ageing the key takes the server's database: on PGlite that lives inside the server's process.
  it.runIf(process.env.DATABASE_URL)(
    "makes a new payment for a key reused after its 24 hours, with the same body",
    async () => {
      const headers = { "Idempotency-Key": `mollie-lapsed-${Date.now()}` };
      const first = (
        (await create(tokens.live, { amount: "7.00", currency: "EUR" }, headers)).body as { data: Payment }
      ).data;
      const db = postgres(suite.server.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      try {
        await db`update idempotency_keys set created_at = now() - interval '25 hours'
                 where key = ${headers["Idempotency-Key"]}`;
      } finally {
        await db.end();
      }
      const again = await create(tokens.live, { amount: "7.00", currency: "EUR" }, headers);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBeNull();
      const second = (again.body as { data: Payment }).data;
      expect(second.id).not.toBe(first.id);
      expect(second.processor_payment_id).not.toBe(first.processor_payment_id);
      expect(second.checkout_url).not.toBe(first.checkout_url);
    },
  );
});

describe("the reconciler", () => {
  it("completes a payment whose webhook never came, by asking Mollie once it is PROCESSOR_RECONCILE_AFTER old", async () => {
    suite.mollie.muteWebhooks(true);
    try {
      const created = (
        (await create(tokens.live, { amount: "9.00", currency: "EUR" })).body as { data: Payment }
      ).data;
      await suite.mollie.setStatus(created.processor_payment_id!, "paid");
      expect((await payment(tokens.live, created.id)).status).toBe("pending");
      expect(await settled(tokens.live, created.id)).toMatchObject({ status: "completed" });
    } finally {
      suite.mollie.muteWebhooks(false);
    }
  });
});

describe("Stripe, in a sandbox on Stripe's test mode", () => {
  it("makes a Checkout Session; the payer pays; the signed webhook completes it with Stripe's fee", async () => {
    const made = await create(tokens.sandbox, { amount: "10.00", currency: "EUR" });
    const created = (made.body as { data: Payment }).data;
    expect(created).toMatchObject({ status: "pending", processor: "stripe" });
    expect(created.processor_payment_id).toMatch(/^cs_test_/);
    expect(created.checkout_url).toMatch(new RegExp(`^${suite.stripe.url}/c/pay/`));
    expect(suite.stripe.pay(created.processor_payment_id!).paid).toBe(true);
    // 1.5% + 25 minor units, the stand-in's price: 0.15 + 0.25.
    expect(await settled(tokens.sandbox, created.id)).toMatchObject({
      status: "completed",
      fee: "0.40",
      net: "9.60",
    });
    await receiver.waitFor("/sandbox", (all) =>
      all.some((hook) => hook.payload.event === "payment.completed" && hook.payload.data.id === created.id),
    );
    const lines = await callApi(suite.server.baseUrl, "/api/balance-transactions", { token: tokens.sandbox });
    const line = (lines.body as { data: Array<Record<string, unknown>> }).data.find(
      (each) => each.type === "payment" && each.payment_id === created.id,
    );
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
    expect(suite.stripe.pay(created.processor_payment_id!, "4000000000009995").paid).toBe(false);
    await suite.stripe.settled();
    expect((await payment(tokens.sandbox, created.id)).status).toBe("pending");
    suite.stripe.expire(created.processor_payment_id!);
    expect(await settled(tokens.sandbox, created.id)).toMatchObject({
      status: "failed",
      failure_code: "insufficient_funds",
    });
  });

  it("refuses an unsigned, tampered or stale webhook with 400, and changes nothing", async () => {
    const created = (
      (await create(tokens.sandbox, { amount: "7.00", currency: "EUR" })).body as { data: Payment }
    ).data;
    const [endpoint] = suite.stripe.webhookEndpoints();
    const secret = String(endpoint!.secret);
    const payload = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "checkout.session.completed",
      data: { object: { id: created.processor_payment_id, object: "checkout.session" } },
    });
    const url = `${suite.server.baseUrl}/api/processors/stripe/webhook/${environments.sandbox}`;
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

  it("makes one Checkout Session for an Idempotency-Key sent twice, and after a connection dropped past Stripe's answer", async () => {
    const before = suite.stripe.sessions().length;
    const headers = { "Idempotency-Key": `stripe-${Date.now()}` };
    const first = await create(tokens.sandbox, { amount: "5.00", currency: "EUR" }, headers);
    const again = await create(tokens.sandbox, { amount: "5.00", currency: "EUR" }, headers);
    expect([first.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect((again.body as { data: Payment }).data.id).toBe((first.body as { data: Payment }).data.id);
    expect(suite.stripe.sessions().length - before).toBe(1);
    // The connection drops after Stripe made it: Stripe's library may try again itself (replayed under the same
    // key), or the merchant gets a 503 and retries.
    const dropped = { "Idempotency-Key": `stripe-dropped-${Date.now()}` };
    suite.stripe.fault("drop-after", 1, "POST");
    const lost = await create(tokens.sandbox, { amount: "6.00", currency: "EUR" }, dropped);
    expect([201, 503]).toContain(lost.status);
    const retried = await create(tokens.sandbox, { amount: "6.00", currency: "EUR" }, dropped);
    expect(retried.status).toBe(201);
    expect(suite.stripe.sessions().length - before).toBe(2);
    const made = (retried.body as { data: Payment }).data;
    expect(suite.stripe.sessions().some((each) => each.id === made.processor_payment_id)).toBe(true);
  });

  it("answers 503 when Stripe answers with HTML, and makes nothing", async () => {
    const before = suite.stripe.sessions().length;
    suite.stripe.fault("html", 3, "POST");
    const down = await create(tokens.sandbox, { amount: "4.00", currency: "EUR" });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(suite.stripe.sessions().length).toBe(before);
  });
});
