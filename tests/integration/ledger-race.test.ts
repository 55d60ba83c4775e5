// The books under races (DESIGN.md, "Balances, fees and payouts", Check): settles, refunds and refund failures
// from many clients; then disputes, refunds and payouts at once. Every figure still adds up, no payout spends
// the same money twice, and ledger:verify finds the books balanced afterwards (on PostgreSQL).
import { describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { balance, racedCompletions, refund, transactionsOf, verifyLedger } from "../support/ledger-client";
import { startManualSettlementServer } from "../support/manual-settlement-server";
import { type SeedData, type TestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// Nothing settles by itself here: each payment, refund and payout ends as the test helpers decide.
let server: TestServer;
let tokens: SeedData["tokens"];
// No payment expires while it waits for its settle. On Citus one merchant's settles at once queue on its hour's
// event count, held across the statement's distributed steps (docs/scaling.md): 24 at once take some 4 s on a
// loaded two-core machine, past the API's 2 s default. What this file checks is the books, not that time.
const onCitus = process.env.TEST_CITUS === "1";
startManualSettlementServer(
  "ledger-race",
  71,
  new WebhookReceiver(),
  (started) => {
    server = started;
    tokens = started.data.tokens;
  },
  { PAYMENTS_PENDING_EXPIRE_AFTER: "1h", ...(onCitus ? { API_DEADLINE_MS: "30000" } : {}) },
);
const ledger = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(server.baseUrl, path, { ...request, token: tokens.ledger });

describe("the books under a race", () => {
  it("settles, refunds and refund failures from many clients, and every figure still adds up", async () => {
    const currency = "CHF";
    const payments = await racedCompletions(
      ledger,
      Array.from({ length: 24 }, (_, index) => `${10 + index}.00`),
      currency,
    );
    await ledger("/api/test-helpers/balance/release", { method: "POST" });
    // Two refunds of each payment at once; every third fails afterwards.
    const refunds = await Promise.all(
      payments.flatMap((payment) => [refund(ledger, payment.id, "1.00"), refund(ledger, payment.id, "2.00")]),
    );
    await Promise.all(
      refunds
        .filter((_, index) => index % 3 === 0)
        .map((made) =>
          ledger(`/api/test-helpers/refunds/${made.id}/settle`, { json: { outcome: "failed" } }),
        ),
    );
    const nets = payments.reduce((sum, payment) => sum + Math.round(Number(payment.net) * 100), 0);
    const failedBack = refunds.filter((_, index) => index % 3 === 0).length;
    const taken = payments.length * 300;
    const expected =
      nets -
      taken +
      refunds
        .map((_, index): number => (index % 3 === 0 ? (index % 2 === 0 ? 100 : 200) : 0))
        .reduce((a, b) => a + b, 0);
    expect(failedBack).toBeGreaterThan(0);
    const figures = await balance(ledger, currency);
    expect(figures.pending).toBe("0.00");
    expect(Math.round(Number(figures.available) * 100)).toBe(expected);
    // The balance is the sum of its transactions' nets.
    const all = await transactionsOf(ledger, `currency=${currency}`);
    expect(all.length).toBe(payments.length + refunds.length + failedBack);
    expect(all.reduce((sum, row) => sum + Math.round(Number(row.net) * 100), 0)).toBe(expected);
  });

  it("settles, disputes, refunds and payouts at once: no payout takes more than there was, and it adds up", async () => {
    const currency = "SEK";
    const cents = (amount: string | null | undefined) => Math.round(Number(amount ?? 0) * 100);
    expect(
      (
        await ledger("/api/payout-account", {
          method: "PUT",
          json: { account_holder: "Ledger AB", iban: "DE89 3704 0044 0532 0130 00" },
        })
      ).status,
    ).toBe(200);
    const payments = await racedCompletions(
      ledger,
      Array.from({ length: 12 }, (_, index) => `${20 + index}.00`),
      currency,
    );
    await ledger("/api/test-helpers/balance/release", { method: "POST" });
    const before = cents((await balance(ledger, currency)).available);
    // At once: a dispute and a refund of each of the first six payments, refunds of the other six, two
    // payouts of everything available and four of 10.00.
    const [disputes, racedRefunds, payouts] = await Promise.all([
      Promise.all(
        payments
          .slice(0, 6)
          .map((payment) => ledger(`/api/test-helpers/payments/${payment.id}/dispute`, { json: {} })),
      ),
      Promise.all(
        payments.map((payment) =>
          ledger(`/api/payments/${payment.id}/refunds`, { json: { amount: "5.00" } }),
        ),
      ),
      Promise.all([
        ...Array.from({ length: 2 }, () => ledger("/api/payouts", { json: { currency } })),
        ...Array.from({ length: 4 }, () => ledger("/api/payouts", { json: { currency, amount: "10.00" } })),
      ]),
    ]);
    // Each is made, or refused for a reason of its own (disputed, nothing left to pay out): never a 5xx.
    for (const answer of [...disputes, ...racedRefunds, ...payouts])
      expect([201, 409, 422], JSON.stringify(answer.body)).toContain(answer.status);
    expect(disputes.every((answer) => answer.status === 201)).toBe(true);
    const made = payouts.filter((answer) => answer.status === 201);
    const paidOut = made.reduce(
      (sum, answer) => sum + cents((answer.body as { data: { amount: string } }).data.amount),
      0,
    );
    expect(made.length).toBeGreaterThan(0);
    // Under the lock no two payouts spent the same money.
    expect(paidOut).toBeLessThanOrEqual(before);
    // Every other payout fails at the bank (its money returns), the rest are paid.
    const settled = await Promise.all(
      made.map((answer, index) =>
        ledger(`/api/test-helpers/payouts/${(answer.body as { data: { id: number } }).data.id}/settle`, {
          json: { outcome: index % 2 === 0 ? "failed" : "paid" },
        }),
      ),
    );
    expect(settled.map((answer) => answer.status)).toEqual(made.map(() => 200));
    const figures = await balance(ledger, currency);
    expect(figures.pending).toBe("0.00");
    const all = await transactionsOf(ledger, `currency=${currency}`);
    expect(all.reduce((sum, row) => sum + cents(row.net), 0)).toBe(cents(figures.available));
    const count = (type: string) => all.filter((row) => row.type === type).length;
    expect([count("payment"), count("dispute"), count("payout"), count("payout_failure")]).toEqual([
      payments.length,
      6,
      made.length,
      Math.ceil(made.length / 2),
    ]);
    expect(count("refund")).toBe(racedRefunds.filter((answer) => answer.status === 201).length);
    // A dispute and a refund of one payment raced: either the refund came first and the dispute took the
    // rest, or the dispute did and the refund was refused. Never both of the whole amount.
    for (const [index, opened] of disputes.entries()) {
      const payment = payments[index]!;
      const disputed = cents((opened.body as { data: { amount: string } }).data.amount);
      if (racedRefunds[index]!.status === 201) expect(disputed).toBe(cents(payment.amount) - 500);
      else expect([racedRefunds[index]!.status, disputed]).toEqual([422, cents(payment.amount)]);
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    "ledger:verify finds the books balanced on the server's database",
    async () => {
      const report = await verifyLedger(server.env);
      expect(report.transactions).toBeGreaterThan(50);
    },
  );
});
