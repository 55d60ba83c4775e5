// Refunds of processors' payments (DESIGN.md, "Processors"), over real HTTP: made here, where what is refundable
// is reserved, then sent to Mollie or Stripe (local stand-ins, through their official libraries) under a key of
// the refund's own; their status comes back by the processor's webhook or the reconciler, never by hand.
import https from "node:https";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { verifyLedger } from "../support/ledger-client";
import { type Payment, processorsSuite, until } from "../support/processors/suite";
import { standInTls } from "../support/processors/tls";

const suite = processorsSuite("processor_refunds", 53);
const { receiver, tokens, create, settled } = suite;

type Refund = Record<string, string | null> & { id: number; payment_id: number };

function refund(token: string, paymentId: number, json: Record<string, unknown>, headers = {}) {
  return callApi(suite.server.baseUrl, `/api/payments/${paymentId}/refunds`, { token, json, headers });
}

async function readRefund(token: string, id: number): Promise<Refund> {
  return ((await callApi(suite.server.baseUrl, `/api/refunds/${id}`, { token })).body as { data: Refund })
    .data;
}

const refundSettled = (token: string, id: number) =>
  until(
    () => readRefund(token, id),
    (now) => now.status !== "pending",
  );

/** A payment of `amount` EUR its processor has taken, completed here. */
async function paidAtMollie(amount: string): Promise<Payment> {
  const made = ((await create(tokens.live, { amount, currency: "EUR" })).body as { data: Payment }).data;
  await suite.mollie.setStatus(made.processor_payment_id!, "paid");
  const completed = await settled(tokens.live, made.id);
  expect(completed.status).toBe("completed");
  return completed;
}

async function paidAtStripe(amount: string): Promise<Payment> {
  const made = ((await create(tokens.sandbox, { amount, currency: "EUR" })).body as { data: Payment }).data;
  expect(suite.stripe.pay(made.processor_payment_id!).paid).toBe(true);
  const completed = await settled(tokens.sandbox, made.id);
  expect(completed.status).toBe("completed");
  return completed;
}

const mollieRefundsOf = (payment: Payment) =>
  suite.mollie.refunds().filter((each) => each.paymentId === payment.processor_payment_id);

function stripeRefundsOf(payment: Payment) {
  const session = suite.stripe.sessions().find((each) => each.id === payment.processor_payment_id)!;
  return suite.stripe.refunds().filter((each) => each.payment_intent === session.payment_intent);
}

describe("refunds at Mollie", () => {
  it("gives part, then the rest, back at Mollie; Mollie's webhook (with the payment's id) succeeds each", async () => {
    const paid = await paidAtMollie("20.00");
    const partial = await refund(tokens.live, paid.id, { amount: "5.00" });
    expect(partial.status).toBe(201);
    const first = (partial.body as { data: Refund }).data;
    expect(first).toMatchObject({ status: "pending", amount: "5.00" });
    const [atMollie] = mollieRefundsOf(paid);
    expect(atMollie).toMatchObject({ amount: { value: "5.00", currency: "EUR" }, status: "pending" });
    await suite.mollie.setRefundStatus(atMollie!.id, "refunded");
    expect(await refundSettled(tokens.live, first.id)).toMatchObject({ status: "succeeded" });

    const rest = ((await refund(tokens.live, paid.id, {})).body as { data: Refund }).data;
    expect(rest).toMatchObject({ status: "pending", amount: "15.00" });
    const second = mollieRefundsOf(paid).find((each) => each.id !== atMollie!.id)!;
    await suite.mollie.setRefundStatus(second.id, "refunded");
    expect(await refundSettled(tokens.live, rest.id)).toMatchObject({ status: "succeeded" });
    expect(mollieRefundsOf(paid)).toHaveLength(2);
    expect(await suite.payment(tokens.live, paid.id)).toMatchObject({ amount_refunded: "20.00" });
    await receiver.waitFor("/live", (all) =>
      [first.id, rest.id].every((id) =>
        all.some((hook) => hook.payload.event === "refund.succeeded" && hook.payload.data.id === id),
      ),
    );
    // Nothing is left to give back: refused here, and nothing sent to Mollie.
    expect((await refund(tokens.live, paid.id, { amount: "1.00" })).status).toBe(422);
    expect(mollieRefundsOf(paid)).toHaveLength(2);
  });

  it("fails a refund Mollie failed, and one it refused, and gives their money back to what is refundable", async () => {
    const paid = await paidAtMollie("10.00");
    const made = ((await refund(tokens.live, paid.id, { amount: "4.00" })).body as { data: Refund }).data;
    await suite.mollie.setRefundStatus(mollieRefundsOf(paid)[0]!.id, "failed");
    expect(await refundSettled(tokens.live, made.id)).toMatchObject({
      status: "failed",
      failure_reason: "Mollie could not give the money back to the payer.",
    });
    // Mollie refuses the same amount twice within an hour as a duplicate: the refund fails with its words.
    const once = ((await refund(tokens.live, paid.id, { amount: "3.00" })).body as { data: Refund }).data;
    const twice = await refund(tokens.live, paid.id, { amount: "3.00" });
    expect(twice.status).toBe(201);
    expect((twice.body as { data: Refund }).data).toMatchObject({ status: "failed" });
    expect((twice.body as { data: Refund }).data.failure_reason).toContain("Mollie refused the refund");
    expect(once.status).toBe("pending");
    expect(await suite.payment(tokens.live, paid.id)).toMatchObject({ amount_refunded: "0.00" });
    // A refund is moved by Mollie alone: not by the test helper's settle.
    const byHand = await callApi(suite.server.baseUrl, `/api/test-helpers/refunds/${once.id}/settle`, {
      token: tokens.live,
      json: { outcome: "succeeded" },
    });
    expect(byHand.status).toBe(404);
  });

  it("sends a refund Mollie could not take at once later, under the same key, and asks about one whose webhook never came", async () => {
    const paid = await paidAtMollie("8.00");
    // Mollie's library tries three times; each attempt meets a 500.
    suite.mollie.fault("500", 3, "POST");
    const down = await refund(tokens.live, paid.id, { amount: "2.00" });
    expect(down.status).toBe(201);
    const made = (down.body as { data: Refund }).data;
    expect(made.status).toBe("pending");
    // A connection that drops after Mollie made it: the next attempt, under the same key, is Mollie's replay.
    suite.mollie.fault("drop-after", 1, "POST");
    const dropped = ((await refund(tokens.live, paid.id, { amount: "2.50" })).body as { data: Refund }).data;
    expect(dropped.status).toBe("pending");
    // The reconciler sends what Mollie did not take (PROCESSOR_RECONCILE_AFTER is 3 s here; it may even do so
    // while the request's own attempts wait), and asks again about the rest: one refund at Mollie each.
    const both = await until(
      () => Promise.resolve(mollieRefundsOf(paid)),
      (all) => all.length >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(
      mollieRefundsOf(paid)
        .map((each) => each.amount.value)
        .sort(),
    ).toEqual(["2.00", "2.50"]);
    // Mollie's webhooks for them never come: the reconciler asks, and finds them refunded.
    suite.mollie.muteWebhooks(true);
    try {
      for (const each of both) await suite.mollie.setRefundStatus(each.id, "refunded");
      expect(await refundSettled(tokens.live, made.id)).toMatchObject({ status: "succeeded" });
      expect(await refundSettled(tokens.live, dropped.id)).toMatchObject({ status: "succeeded" });
    } finally {
      suite.mollie.muteWebhooks(false);
    }
  });
});

describe("refunds at Stripe", () => {
  it("gives part, then the rest, back at Stripe; the signed refund.updated succeeds each", async () => {
    const paid = await paidAtStripe("30.00");
    const first = ((await refund(tokens.sandbox, paid.id, { amount: "10.00" })).body as { data: Refund })
      .data;
    const rest = ((await refund(tokens.sandbox, paid.id, {})).body as { data: Refund }).data;
    expect([first.status, rest.status, rest.amount]).toEqual(["pending", "pending", "20.00"]);
    const atStripe = stripeRefundsOf(paid);
    expect(atStripe.map((each) => each.amount).sort()).toEqual([1000, 2000]);
    for (const each of atStripe) suite.stripe.setRefundStatus(String(each.id), "succeeded");
    expect(await refundSettled(tokens.sandbox, first.id)).toMatchObject({ status: "succeeded" });
    expect(await refundSettled(tokens.sandbox, rest.id)).toMatchObject({ status: "succeeded" });
    expect(await suite.payment(tokens.sandbox, paid.id)).toMatchObject({ amount_refunded: "30.00" });
    // The balance's lines: the payment's gross, Stripe's fee and net, then each refund out of it.
    const lines = await callApi(suite.server.baseUrl, `/api/balance-transactions?payment_id=${paid.id}`, {
      token: tokens.sandbox,
    });
    const ofPayment = (lines.body as { data: Array<Record<string, unknown>> }).data;
    expect(ofPayment.find((each) => each.type === "payment")).toMatchObject({
      amount: "30.00",
      fee: "0.70",
      net: "29.30",
    });
    expect(ofPayment.filter((each) => each.type === "refund").map((each) => each.amount)).toEqual(
      expect.arrayContaining(["-10.00", "-20.00"]),
    );
  });

  it("fails a refund Stripe failed (refund.failed), and one Stripe refused; the test helper cannot move one", async () => {
    const paid = await paidAtStripe("12.00");
    const made = ((await refund(tokens.sandbox, paid.id, { amount: "12.00" })).body as { data: Refund }).data;
    const byHand = await callApi(suite.server.baseUrl, `/api/test-helpers/refunds/${made.id}/settle`, {
      token: tokens.sandbox,
      json: { outcome: "succeeded" },
    });
    expect(byHand.status).toBe(409);
    expect(byHand.text).toContain("given back by its payment's processor");
    suite.stripe.setRefundStatus(String(stripeRefundsOf(paid)[0]!.id), "failed", "lost_or_stolen_card");
    expect(await refundSettled(tokens.sandbox, made.id)).toMatchObject({
      status: "failed",
      failure_reason: "Stripe could not give the money back (lost or stolen card).",
    });
    // Refunded in Stripe's own dashboard meanwhile: Stripe refuses this platform's refund of the same money.
    const session = suite.stripe.sessions().find((each) => each.id === paid.processor_payment_id)!;
    const dashboard = new Stripe(suite.keys.stripe, {
      host: "127.0.0.1",
      port: suite.stripe.port,
      protocol: "https",
      httpAgent: new https.Agent({ ca: standInTls().ca }),
    });
    await dashboard.refunds.create({ payment_intent: String(session.payment_intent) });
    const again = await refund(tokens.sandbox, paid.id, {});
    expect(again.status).toBe(201);
    const refused = (again.body as { data: Refund }).data;
    expect(refused.status).toBe("failed");
    expect(refused.failure_reason).toContain("Stripe refused the refund");
  });
});

describe("the books", () => {
  // The operator's check reads the server's database: on PGlite that lives inside the server's process.
  it.runIf(process.env.DATABASE_URL)("ledger:verify: they balance after every refund above", async () => {
    await verifyLedger(suite.server.env);
  });
});
