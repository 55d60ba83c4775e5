// The ledger over real HTTP (DESIGN.md, "Balances, fees and payouts"): a completed payment's fee and net, its
// balance transaction pending and then released, refunds and their failures taking and giving back, fees in
// each currency's minor units and at a merchant's own price, the filters' refusals, and another merchant's
// transactions out of reach. The races are in ledger-race.test.ts.
import { describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { balance, completedPayment, refund, transactionsOf, type Payment } from "../support/ledger-client";
import { manualSettlementSuite } from "../support/manual-settlement-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// Nothing settles by itself here: each payment and refund ends as the test helpers decide.
const suite = manualSettlementSuite("ledger", 59, new WebhookReceiver());
const { as } = suite;
const ledger = as("ledger");

describe("a completed payment on the ledger", () => {
  it("takes 0.59 of 10.00 EUR, leaves 9.41 pending, then available; a 2.00 refund leaves 7.41", async () => {
    const payment = await completedPayment(ledger, "10.00", "EUR");
    expect(payment).toMatchObject({ status: "completed", fee: "0.59", net: "9.41" });
    const retrieved = (await ledger(`/api/payments/${payment.id}`)).body as { data: Payment };
    expect(retrieved.data).toMatchObject({ fee: "0.59", net: "9.41" });
    const events = (await ledger(`/api/events?payment_id=${payment.id}`)).body as {
      data: Array<{ event: string; data: Payment }>;
    };
    // The event, built by the statement that settles, is the payment as retrieved (less what refunds took).
    const { amount_refunded, amount_refundable, ...resource } = retrieved.data as Payment & {
      amount_refunded: string;
      amount_refundable: string;
    };
    expect([amount_refunded, amount_refundable]).toEqual(["0.00", "10.00"]);
    const completed = events.data.find((event) => event.event === "payment.completed")!.data;
    expect(completed).toEqual(resource);
    expect(Object.keys(completed)).toEqual(Object.keys(resource));
    expect(events.data.find((event) => event.event === "payment.pending")!.data).toMatchObject({
      fee: null,
      net: null,
    });

    expect(await balance(ledger, "EUR")).toEqual({ available: "0.00", pending: "9.41" });
    const [posted] = await transactionsOf(ledger, "currency=EUR&type=payment");
    expect(posted).toMatchObject({
      type: "payment",
      source_id: payment.id,
      currency: "EUR",
      amount: "10.00",
      fee: "0.59",
      net: "9.41",
      status: "pending",
      payout_id: null,
    });
    // Two days after it completed (BALANCE_AVAILABLE_AFTER's default).
    const wait = Date.parse(posted!.available_on) - Date.now();
    expect(wait).toBeGreaterThan(47 * 3_600_000);
    expect(wait).toBeLessThanOrEqual(48 * 3_600_000);
    expect((await ledger(`/api/balance-transactions/${posted!.id}`)).body).toEqual({ data: posted });

    const released = await ledger("/api/test-helpers/balance/release", { method: "POST" });
    expect(released.status).toBe(200);
    expect(await balance(ledger, "EUR")).toEqual({ available: "9.41", pending: "0.00" });
    expect((await ledger(`/api/balance-transactions/${posted!.id}`)).body).toMatchObject({
      data: { status: "available" },
    });

    const made = await refund(ledger, payment.id, "2.00");
    expect(await balance(ledger, "EUR")).toEqual({ available: "7.41", pending: "0.00" });
    const [taken] = await transactionsOf(ledger, "currency=EUR&type=refund");
    expect(taken).toMatchObject({
      type: "refund",
      source_id: made.id,
      amount: "-2.00",
      fee: "0.00",
      net: "-2.00",
      status: "available",
    });
  });

  it("gives a failed refund's amount back, and a failed payment moves nothing", async () => {
    const payment = await completedPayment(ledger, "5.00", "GBP");
    await ledger("/api/test-helpers/balance/release", { method: "POST" });
    const before = await balance(ledger, "GBP");
    const made = await refund(ledger, payment.id, "1.50");
    expect(await balance(ledger, "GBP")).toEqual({ available: "3.05", pending: "0.00" });
    expect(before).toEqual({ available: "4.55", pending: "0.00" });
    const failed = await ledger(`/api/test-helpers/refunds/${made.id}/settle`, {
      json: { outcome: "failed" },
    });
    expect(failed.status).toBe(200);
    expect(await balance(ledger, "GBP")).toEqual(before);
    const [back] = await transactionsOf(ledger, "currency=GBP&type=refund_failure");
    expect(back).toMatchObject({ source_id: made.id, amount: "1.50", net: "1.50" });

    const created = await ledger("/api/payments", {
      json: { amount: "7.00", currency: "GBP" },
      headers: { Prefer: "return=representation" },
    });
    const id = (created.body as { data: { id: number } }).data.id;
    const declined = await ledger(`/api/test-helpers/payments/${id}/settle`, { json: { outcome: "failed" } });
    expect((declined.body as { data: Payment }).data).toMatchObject({
      status: "failed",
      fee: null,
      net: null,
    });
    expect(await balance(ledger, "GBP")).toEqual(before);
    expect((await transactionsOf(ledger, "currency=GBP")).map((row) => row.source_id)).not.toContain(id);
  });

  it.each([
    // 2.9% of 1500 is 43.5, half up 44, + 30 yen.
    ["JPY", "1500", "74", "1426"],
    // 2.9% of 1.250 is 0.03625, to 0.036, + 0.030.
    ["KWD", "1.250", "0.066", "1.184"],
    // 2.9% of 0.50 is 0.0145, to 0.01, + 0.30: more than the amount, so the net is negative.
    ["USD", "0.50", "0.31", "0.19"],
  ])(
    "charges %s %s a fee of %s (net %s), rounded half up to its minor unit",
    async (currency, amount, fee, net) => {
      const payment = await completedPayment(ledger, amount, currency);
      expect(payment).toMatchObject({ fee, net });
    },
  );

  it("charges a merchant its own price (merchant:pricing 1.4 + 0.25)", async () => {
    const payment = await completedPayment(as("priced"), "10.00", "EUR");
    expect(payment).toMatchObject({ fee: "0.39", net: "9.61" });
  });
});

describe("balance transactions' refusals and isolation", () => {
  it.each([
    ["type=bogus", "type", "The selected type is invalid."],
    ["currency=XYZ", "currency", "The selected currency is invalid."],
    ["payout_id=abc", "payout_id", "The payout id field must be an integer."],
    ["created_from=2026-02-30", "created_from", "The created from field must be a valid date."],
    [
      "created_from=2026-02-02&created_to=2026-02-01",
      "created_to",
      "The created to field must be a date after or equal to created from.",
    ],
    ["page=0", "page", "The page field must be at least 1."],
  ])("?%s is a 422 naming %s", async (query, field, message) => {
    const response = await ledger(`/api/balance-transactions?${query}`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: "The given data was invalid.", errors: { [field]: [message] } });
  });

  it("never shows or counts another merchant's", async () => {
    const [mine] = await transactionsOf(ledger, "");
    expect(mine).toBeDefined();
    const other = as("other");
    expect((await other(`/api/balance-transactions/${mine!.id}`)).status).toBe(404);
    const theirs = await transactionsOf(other, "");
    expect(theirs.map((row) => row.id)).not.toContain(mine!.id);
    expect((await other("/api/balance")).body).toEqual({ data: { available: [], pending: [] } });
    // Releasing is the caller's own: the ledger merchant's pending stays pending.
    const payment = await completedPayment(ledger, "3.00", "CAD");
    expect((await other("/api/test-helpers/balance/release", { method: "POST" })).status).toBe(200);
    expect(payment.net).toBe("2.61");
    expect(await balance(ledger, "CAD")).toEqual({ available: "0.00", pending: "2.61" });
  });

  it("refuses the release and reads to a read-only or missing token", async () => {
    expect((await as("read")("/api/test-helpers/balance/release", { method: "POST" })).status).toBe(403);
    expect((await callApi(suite.server.baseUrl, "/api/balance")).status).toBe(401);
    expect(
      (await callApi(suite.server.baseUrl, "/api/balance-transactions", { token: "pay_nonsense" })).status,
    ).toBe(401);
  });
});
