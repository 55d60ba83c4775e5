// Payouts over real HTTP (DESIGN.md, "Balances, fees and payouts"): the payout account and its IBAN check, a
// payout of all that is available and the transactions it carries, the closed-account IBAN's failure giving
// the money back, part payouts and cancels, refusals, another merchant's payouts out of reach, a race of payouts
// that cannot pay out more than there is, an Idempotency-Key's retry that pays out once; then the schedule and the simulated bank, as the worker runs them.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { releaseMerchantBalance } from "@/lib/ledger/release";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { setPayoutAccount } from "@/lib/payouts/account";
import { findPayout, moveDuePayouts } from "@/lib/payouts/payouts";
import { runScheduledPayouts } from "@/lib/payouts/schedule";
import { db, newMerchant } from "../support/direct-db";
import { verifyLedger } from "../support/ledger-client";
import { manualSettlementSuite } from "../support/manual-settlement-server";
import { mailsTo } from "../support/outbox";
import { WebhookReceiver } from "../support/webhook-receiver";

const suite = manualSettlementSuite("payouts", 61, new WebhookReceiver());
const { as } = suite;
const merchant = as("ledger");
const other = as("other");

type Payout = { id: number; amount: string; currency: string; status: string; failure_reason: string | null };
type Amounts = Array<{ currency: string; amount: string }>;

async function available(currency: string): Promise<string | undefined> {
  const { data } = (await merchant("/api/balance")).body as { data: { available: Amounts } };
  return data.available.find((entry) => entry.currency === currency)?.amount;
}

/** A payment of `amount` completed and made available now. */
async function earn(amount: string, currency: string): Promise<number> {
  const created = await merchant("/api/payments", {
    json: { amount, currency },
    headers: { Prefer: "return=representation" },
  });
  const id = (created.body as { data: { id: number } }).data.id;
  expect(
    (await merchant(`/api/test-helpers/payments/${id}/settle`, { json: { outcome: "completed" } })).status,
  ).toBe(200);
  expect((await merchant("/api/test-helpers/balance/release", { method: "POST" })).status).toBe(200);
  return id;
}

async function payoutCount(): Promise<number> {
  return ((await merchant("/api/payouts")).body as { meta: { total: number } }).meta.total;
}

async function payout(json: Record<string, unknown>) {
  return merchant("/api/payouts", { json });
}

const setAccount = (iban: string) =>
  merchant("/api/payout-account", { method: "PUT", json: { account_holder: "Ledger GmbH", iban } });

describe("the payout account", () => {
  it.each([
    [{ iban: "DE89 3704 0044 0532 0130 00" }, { account_holder: ["The account holder field is required."] }],
    [{ account_holder: "A" }, { iban: ["The IBAN field is required."] }],
    [
      { account_holder: "A", iban: "DE89 3704 0044 0532 0130 01" },
      { iban: ["The IBAN field must be a valid IBAN."] },
    ],
    [{ account_holder: "A", iban: "not an iban" }, { iban: ["The IBAN field must be a valid IBAN."] }],
    [
      { account_holder: "A", iban: "DE89\u00003704" },
      { iban: ["The IBAN field must not contain NUL characters."] },
    ],
  ])("refuses %j, writing nothing", async (json, errors) => {
    const response = await merchant("/api/payout-account", { method: "PUT", json });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: "The given data was invalid.", errors });
    expect((await merchant("/api/payout-account")).status).toBe(404);
  });

  it("keeps the IBAN encrypted and shows its last 4; another merchant sees none", async () => {
    const response = await setAccount("de89 3704 0044 0532 0130 00");
    expect(response.status).toBe(200);
    const { data } = response.body as { data: Record<string, string> };
    expect(Object.keys(data).sort()).toEqual([
      "account_holder",
      "failure_reason",
      "iban_last4",
      "payouts_start_at",
      "status",
      "updated_at",
    ]);
    expect(data).toMatchObject({ account_holder: "Ledger GmbH", iban_last4: "3000" });
    expect(JSON.stringify((await merchant("/api/payout-account")).body)).not.toContain("DE89");
    expect((await other("/api/payout-account")).status).toBe(404);
    expect((await as("read")("/api/payout-account", { method: "PUT", json: {} })).status).toBe(403);
  });
});

describe("a payout", () => {
  it("pays out all of it (7.41 after a 9.41 net and a 2.00 refund), carries what it pays, and arrives", async () => {
    const paymentId = await earn("10.00", "EUR");
    expect((await merchant(`/api/payments/${paymentId}/refunds`, { json: { amount: "2.00" } })).status).toBe(
      201,
    );
    expect(await available("EUR")).toBe("7.41");
    const created = await payout({ currency: "eur" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const made = (created.body as { message: string; data: Payout }).data;
    expect(created.body).toMatchObject({ message: "Payout created successfully" });
    expect(created.headers.get("location")).toBe(`/api/payouts/${made.id}`);
    expect(made).toMatchObject({ amount: "7.41", currency: "EUR", status: "pending", failure_reason: null });
    expect(await available("EUR")).toBe("0.00");

    const carried = (await merchant(`/api/balance-transactions?payout_id=${made.id}`)).body as {
      data: Array<{ type: string; net: string }>;
    };
    expect(carried.data.map((row) => [row.type, row.net]).sort()).toEqual([
      ["payment", "9.41"],
      ["refund", "-2.00"],
    ]);

    const settled = await merchant(`/api/test-helpers/payouts/${made.id}/settle`, { method: "POST" });
    expect(settled.status).toBe(200);
    expect((settled.body as { data: Payout }).data.status).toBe("paid");
    expect(await available("EUR")).toBe("0.00");
    const events = (await merchant("/api/events?perPage=100")).body as {
      data: Array<{ event: string; data: Payout }>;
    };
    const mine = events.data.filter(
      (event) => event.data.id === made.id && event.event.startsWith("payout."),
    );
    expect(mine.map((event) => event.event).sort()).toEqual(["payout.created", "payout.paid"]);
    // Final: neither cancel nor settle moves it again.
    expect((await merchant(`/api/payouts/${made.id}/cancel`, { method: "POST" })).status).toBe(409);
    expect((await merchant(`/api/test-helpers/payouts/${made.id}/settle`, { method: "POST" })).status).toBe(
      409,
    );
  });

  it("fails to the closed-account IBAN, and the money is available again", async () => {
    expect((await setAccount("GB33 BUKB 2020 1555 5555 55")).status).toBe(200);
    await earn("5.00", "GBP");
    expect(await available("GBP")).toBe("4.55");
    const made = ((await payout({ currency: "GBP" })).body as { data: Payout }).data;
    expect(await available("GBP")).toBe("0.00");
    const settled = await merchant(`/api/test-helpers/payouts/${made.id}/settle`, { method: "POST" });
    expect((settled.body as { data: Payout }).data).toMatchObject({
      status: "failed",
      failure_reason: "The bank account is closed.",
    });
    expect(await available("GBP")).toBe("4.55");
    const back = (await merchant("/api/balance-transactions?type=payout_failure&currency=GBP")).body as {
      data: Array<{ source_id: number; amount: string }>;
    };
    expect(back.data).toEqual([expect.objectContaining({ source_id: made.id, amount: "4.55" })]);
    // Every owner is told why, and what to do.
    const { MAIL_OUTBOX_DIR } = suite.server.env;
    const owner = suite.server.data.ledger.email;
    const mails = mailsTo(MAIL_OUTBOX_DIR!, owner).filter((mail) => mail.includes(`Payout ${made.id} `));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Subject: A payout of 4.55 GBP failed");
    expect(mails[0]).toContain("failed: The bank account is closed.");
    expect((await setAccount("DE89370400440532013000")).status).toBe(200);
  });

  it("pays out part of it, and a cancel while pending gives it back", async () => {
    await earn("20.00", "USD");
    const before = await available("USD");
    const created = await payout({ currency: "USD", amount: "1.00" });
    expect(created.status).toBe(201);
    const made = (created.body as { data: Payout }).data;
    expect(made.amount).toBe("1.00");
    const canceled = await merchant(`/api/payouts/${made.id}/cancel`, { method: "POST" });
    expect((canceled.body as { data: Payout }).data.status).toBe("canceled");
    expect(await available("USD")).toBe(before);
    expect((await merchant(`/api/payouts/${made.id}/cancel`, { method: "POST" })).status).toBe(409);
  });

  it.each([
    [{}, "currency", "The currency field is required."],
    [{ currency: "XYZ" }, "currency", "The selected currency is invalid."],
    [{ currency: "USD", amount: "1.001" }, "amount", "The amount field must have at most 2 decimal places."],
    [{ currency: "USD", amount: "0" }, "amount", "The amount field must be greater than 0."],
    [{ currency: "USD", amount: "100000" }, "amount", "The amount field must not be greater than"],
    [{ currency: "SEK" }, "amount", "Nothing is available to pay out in SEK (0.00)."],
  ])("refuses %j with a 422 on %s, paying nothing", async (json, field, message) => {
    const before = await available("USD");
    const response = await payout(json);
    expect(response.status).toBe(422);
    const { errors } = response.body as { errors: Record<string, string[]> };
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]![0]).toContain(message);
    expect(await available("USD")).toBe(before);
  });

  it("is refused without a payout account, and another merchant's is none of its", async () => {
    const priced = as("priced");
    const response = await priced("/api/payouts", { json: { currency: "EUR" } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ errors: { payout_account: [expect.any(String)] } });
    const { data } = (await merchant("/api/payouts")).body as { data: Payout[] };
    const theirs = data[0]!;
    expect((await other(`/api/payouts/${theirs.id}`)).status).toBe(404);
    expect((await other(`/api/payouts/${theirs.id}/cancel`, { method: "POST" })).status).toBe(404);
    expect((await other(`/api/test-helpers/payouts/${theirs.id}/settle`, { method: "POST" })).status).toBe(
      404,
    );
    expect(((await other("/api/payouts")).body as { data: Payout[] }).data).toEqual([]);
  });

  it("never pays out more than there is: ten payouts at once of all of it, one is made", async () => {
    await earn("30.00", "CHF");
    const total = await available("CHF");
    const answers = await Promise.all(Array.from({ length: 10 }, () => payout({ currency: "CHF" })));
    const made = answers.filter((answer) => answer.status === 201);
    expect(made).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(9);
    expect((made[0]!.body as { data: Payout }).data.amount).toBe(total);
    expect(await available("CHF")).toBe("0.00");
  });
});

describe("a payout's Idempotency-Key", () => {
  it("pays out once for a key sent three times at once, replays it after, and refuses another body", async () => {
    await earn("12.00", "CHF");
    const before = await available("CHF");
    const payoutsBefore = await payoutCount();
    const afterOne = (Math.round(Number(before) * 100) - 500) / 100;
    const key = `payout-${randomBytes(6).toString("hex")}`;
    const send = (json: Record<string, unknown>) =>
      merchant("/api/payouts", { json, headers: { "Idempotency-Key": key } });
    const racing = await Promise.all([1, 2, 3].map(() => send({ currency: "CHF", amount: "5.00" })));
    expect(racing.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const ids = new Set(racing.map((answer) => (answer.body as { data: Payout }).data.id));
    expect(ids.size).toBe(1);
    expect(racing.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(2);
    const [id] = [...ids];
    expect(await payoutCount()).toBe(payoutsBefore + 1);

    const again = await send({ currency: "CHF", amount: "5.00" });
    expect(again.status).toBe(201);
    expect((again.body as { data: Payout }).data.id).toBe(id);
    expect(await available("CHF")).toBe(afterOne.toFixed(2));

    const reused = await send({ currency: "CHF", amount: "6.00" });
    expect(reused.status).toBe(409);
    expect(await available("CHF")).toBe(afterOne.toFixed(2));
    const bad = await merchant("/api/payouts", {
      json: { currency: "CHF" },
      headers: { "Idempotency-Key": "" },
    });
    expect(bad.status).toBe(422);
  });
});

describe("the schedule and the simulated bank", () => {
  it("pays a daily merchant out the next day, and the simulator takes the payout to paid", async () => {
    const merchantId = await newMerchant("Scheduled");
    await setPayoutAccount(db, merchantId, { account_holder: "Scheduled", iban: "DE89370400440532013000" });
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount: "12.00", currency: "EUR" },
      {
        source: "cli",
        autoSettleMs: 0,
      },
    );
    await settlePayment(db, paymentId, { outcome: "completed" }, merchantId);
    await releaseMerchantBalance(db, merchantId);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // Created today: today's run leaves it; tomorrow's pays it, once (other merchants the database may hold
    // are not this test's business: only this one's payouts are counted).
    const payoutsOfIt = () =>
      selectRows<{ id: string }>(db, sql`select id::text from payouts where merchant_id = ${merchantId}`);
    // Each run claims a batch of the merchants due: run until none is left.
    const runAll = async (day: string) => {
      while ((await runScheduledPayouts(db, day, 1)) > 0);
    };
    await runAll(today);
    expect(await payoutsOfIt()).toEqual([]);
    await runAll(tomorrow);
    await runAll(tomorrow);
    const [payoutRow, ...more] = await payoutsOfIt();
    expect(more).toEqual([]);
    const payoutId = Number(payoutRow!.id);
    for (const status of ["in_transit", "paid"]) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await moveDuePayouts(db, 1);
      expect((await findPayout(db, merchantId, payoutId))!.status).toBe(status);
    }
    expect((await findPayout(db, merchantId, payoutId))!.amount).toBe("11.35");
  });
});

// Last: the check blocks this process for seconds (a synchronous child), past the server's keep-alive timeout,
// so a request right after it would be sent on a connection the server has closed meanwhile.
describe("the books after all of it", () => {
  it.runIf(process.env.DATABASE_URL)("leaves books that ledger:verify finds balanced", async () => {
    await verifyLedger(suite.server.env);
  });
});
