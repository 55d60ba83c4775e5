// What a hostile probe of the money paths found, over real HTTP (DESIGN.md, "Idempotency", "Zero", "Largest
// payout", "A payout account that failed", "Disputed money"): a retry with the same key and the same meaning
// replays on every state-changing POST; a payment of 0 costs nothing and cannot be refunded or disputed; the
// largest amount in each currency's decimals, and a payout of all that never exceeds it; an account a payout
// failed on is errored until replaced; nothing refundable while the bank holds the money.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { openDispute } from "@/lib/disputes/disputes";
import { acceptDispute } from "@/lib/disputes/evidence";
import { disputeFee } from "@/lib/ledger/pricing";
import { releaseMerchantBalance } from "@/lib/ledger/release";
import { CURRENCY_CODES, minorUnits } from "@/lib/money/currencies";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { getPaymentStats } from "@/lib/payments/stats";
import { setPayoutAccount } from "@/lib/payouts/account";
import { runScheduledPayouts } from "@/lib/payouts/schedule";
import { db, newMerchant } from "../support/direct-db";
import { completedPayment, transactionsOf } from "../support/ledger-client";
import { manualSettlementSuite } from "../support/manual-settlement-server";
import { WebhookReceiver } from "../support/webhook-receiver";

const suite = manualSettlementSuite("money-details", 71, new WebhookReceiver());
const { as } = suite;
const merchant = as("ledger");
const disputer = as("disputer");
const treasury = as("treasury");

const dataOf = <T>(response: { body: unknown }) => (response.body as { data: T }).data;
const keyed = (key: string) => ({ "Idempotency-Key": key });

/** A completed payment of `amount`, its money available now. */
async function earned(api: typeof merchant, amount: string, currency: string) {
  const payment = await completedPayment(api, amount, currency);
  expect((await api("/api/test-helpers/balance/release", { method: "POST" })).status).toBe(200);
  return payment;
}

describe("a retry is a retry: the same key and the same meaning replay", () => {
  it('a refund sent as 10.5 and retried as "10.50" is one refund', async () => {
    const payment = await completedPayment(merchant, "30.00", "EUR");
    const key = randomUUID();
    const path = `/api/payments/${payment.id}/refunds`;
    const first = await merchant(path, { json: { amount: 10.5 }, headers: keyed(key) });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await merchant(path, { json: { amount: "10.50" }, headers: keyed(key) });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf<{ id: number }>(retry).id).toBe(dataOf<{ id: number }>(first).id);
    const other = await merchant(path, { json: { amount: "10.51" }, headers: keyed(key) });
    expect(other.status).toBe(409);
    expect(
      dataOf<{ amount_refund_pending?: string; amount_refundable: string }>(
        await merchant(`/api/payments/${payment.id}`),
      ).amount_refundable,
    ).toBe("19.50");
  });

  it('a payout sent as 10 and retried as "10.00" (and eur) is one payout', async () => {
    await merchant("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Ledger", iban: "DE89 3704 0044 0532 0130 00" },
    });
    await earned(merchant, "50.00", "EUR");
    const key = randomUUID();
    const first = await merchant("/api/payouts", {
      json: { currency: "EUR", amount: 10 },
      headers: keyed(key),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await merchant("/api/payouts", {
      json: { currency: "eur", amount: "10.00" },
      headers: keyed(key),
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf<{ id: number }>(retry).id).toBe(dataOf<{ id: number }>(first).id);
    // And its cancel: retried with its key, the canceled payout again, not a 409.
    const payoutId = dataOf<{ id: number }>(first).id;
    const cancelKey = randomUUID();
    const canceled = await merchant(`/api/payouts/${payoutId}/cancel`, {
      method: "POST",
      headers: keyed(cancelKey),
    });
    expect(canceled.status).toBe(200);
    const again = await merchant(`/api/payouts/${payoutId}/cancel`, {
      method: "POST",
      headers: keyed(cancelKey),
    });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf<{ status: string }>(again).status).toBe("canceled");
    expect((await merchant(`/api/payouts/${payoutId}/cancel`, { method: "POST" })).status).toBe(409);
  });

  it("a payment's cancel retried with its key replays; the key on another action is a 409", async () => {
    const created = await merchant("/api/payments", {
      json: { amount: "5.00" },
      headers: { Prefer: "return=representation" },
    });
    const id = dataOf<{ id: number }>(created).id;
    const key = randomUUID();
    const first = await merchant(`/api/payments/${id}/cancel`, { method: "POST", headers: keyed(key) });
    expect(first.status).toBe(200);
    const retry = await merchant(`/api/payments/${id}/cancel`, { method: "POST", headers: keyed(key) });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf<{ status: string; failure_code: string }>(retry)).toMatchObject({
      status: "failed",
      failure_code: "canceled",
    });
    const reused = await merchant("/api/payments", { json: { amount: "5.00" }, headers: keyed(key) });
    expect(reused.status).toBe(409);
    expect((await merchant(`/api/payments/${id}/cancel`, { method: "POST" })).status).toBe(409);
  });

  it("dispute evidence submitted and retried after a timeout replays instead of a 409; close likewise", async () => {
    const payment = await completedPayment(disputer, "40.00", "EUR");
    const opened = await disputer(`/api/test-helpers/payments/${payment.id}/dispute`, { json: {} });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const disputeId = dataOf<{ id: number }>(opened).id;
    // Open: the bank has the money, so nothing is refundable.
    expect(
      dataOf<{ amount_refundable: string }>(await disputer(`/api/payments/${payment.id}`)).amount_refundable,
    ).toBe("0.00");
    const key = randomUUID();
    const evidence = { uncategorized_text: "Delivered on the 3rd", submit: true };
    const path = `/api/disputes/${disputeId}/evidence`;
    const first = await disputer(path, { json: evidence, headers: keyed(key) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const retry = await disputer(path, {
      json: { submit: true, uncategorized_text: "Delivered on the 3rd" },
      headers: keyed(key),
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf<{ status: string }>(retry).status).toBe("under_review");
    expect((await disputer(path, { json: evidence })).status).toBe(409);
    expect(
      (await disputer(path, { json: { ...evidence, uncategorized_text: "else" }, headers: keyed(key) }))
        .status,
    ).toBe(409);

    const second = await completedPayment(disputer, "12.00", "EUR");
    const other = dataOf<{ id: number }>(
      await disputer(`/api/test-helpers/payments/${second.id}/dispute`, { json: {} }),
    ).id;
    const closeKey = randomUUID();
    const closed = await disputer(`/api/disputes/${other}/close`, {
      method: "POST",
      headers: keyed(closeKey),
    });
    expect(closed.status).toBe(200);
    const closedAgain = await disputer(`/api/disputes/${other}/close`, {
      method: "POST",
      headers: keyed(closeKey),
    });
    expect(closedAgain.status).toBe(200);
    expect(dataOf<{ status: string }>(closedAgain).status).toBe("lost");
    // Lost: nothing is refundable (the bank kept the money).
    expect(
      dataOf<{ amount_refundable: string }>(await disputer(`/api/payments/${second.id}`)).amount_refundable,
    ).toBe("0.00");
  });

  it('a payment link sent as 5 and retried as "5.00" is one link; the payout account\'s PUT replays too', async () => {
    const key = randomUUID();
    const first = await treasury("/api/payment-links", {
      json: { name: "Tea", amount: 5, currency: "EUR" },
      headers: keyed(key),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await treasury("/api/payment-links", {
      json: { name: "Tea", amount: "5.00", currency: "eur" },
      headers: keyed(key),
    });
    expect(retry.status).toBe(201);
    expect(dataOf<{ id: number }>(retry).id).toBe(dataOf<{ id: number }>(first).id);
    expect(
      (await treasury("/api/payment-links", { json: { name: "Coffee", amount: 5 }, headers: keyed(key) }))
        .status,
    ).toBe(409);

    const accountKey = randomUUID();
    const account = { account_holder: "Treasury", iban: "DE89370400440532013000" };
    const put = await treasury("/api/payout-account", {
      method: "PUT",
      json: account,
      headers: keyed(accountKey),
    });
    expect(put.status).toBe(200);
    const putAgain = await treasury("/api/payout-account", {
      method: "PUT",
      json: { ...account, iban: "de89 3704 0044 0532 0130 00" },
      headers: keyed(accountKey),
    });
    expect(putAgain.status).toBe(200);
    expect(putAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf<{ iban_last4: string; status: string }>(putAgain)).toMatchObject({
      iban_last4: "3000",
      status: "active",
    });
    const otherAccount = await treasury("/api/payout-account", {
      method: "PUT",
      json: { ...account, iban: "GB33BUKB20201555555555" },
      headers: keyed(accountKey),
    });
    expect(otherAccount.status).toBe(409);
    expect(dataOf<{ iban_last4: string }>(await treasury("/api/payout-account")).iban_last4).toBe("3000");
  });
});

describe("a payment of 0 costs nothing", () => {
  it("completes with fee and net 0, posts no balance transaction, and cannot be refunded or disputed", async () => {
    const payment = await completedPayment(disputer, "0", "JPY");
    expect(payment).toMatchObject({ status: "completed", fee: "0", net: "0" });
    const eur = await completedPayment(disputer, "0.00", "EUR");
    expect(eur).toMatchObject({ fee: "0.00", net: "0.00" });
    const moves = await transactionsOf(disputer, "type=payment");
    expect(moves.filter((move) => move.source_id === payment.id || move.source_id === eur.id)).toEqual([]);
    const refund = await disputer(`/api/payments/${eur.id}/refunds`, { json: {} });
    expect(refund.status).toBe(422);
    expect(refund.body).toEqual({
      message: "The given data was invalid.",
      errors: { amount: ["There is nothing to refund."] },
    });
    const dispute = await disputer(`/api/test-helpers/payments/${eur.id}/dispute`, { json: {} });
    expect(dispute.status).toBe(422);
    expect((dispute.body as { errors: Record<string, string[]> }).errors.payment).toEqual([
      "A payment of 0 cannot be disputed: no money moved.",
    ]);
  });
});

describe("one rule for minor units", () => {
  it("the database's minor_units (fees) agrees with lib/money/currencies (formatting) for every currency", async () => {
    const rows = await selectRows<{ code: string; units: number }>(
      db,
      sql`select code, minor_units(code) as units from unnest(string_to_array(${CURRENCY_CODES.join(",")}, ',')) with ordinality as c (code, n) order by n`,
    );
    expect(rows.map((row) => [row.code, Number(row.units)])).toEqual(
      CURRENCY_CODES.map((code) => [code, minorUnits(code)]),
    );
  });

  it("the database's dispute_fee (open_dispute) agrees with lib/ledger/pricing's disputeFee for every currency", async () => {
    const rows = await selectRows<{ code: string; fee: string }>(
      db,
      sql`select code, dispute_fee(code)::text as fee from unnest(string_to_array(${CURRENCY_CODES.join(",")}, ',')) with ordinality as c (code, n) order by n`,
    );
    expect(rows.map((row) => [row.code, row.fee])).toEqual(
      CURRENCY_CODES.map((code) => [code, disputeFee(code)]),
    );
  });
});

describe("the largest amount", () => {
  it.each([
    ["JPY", "1000000000000", "999999999999"],
    ["EUR", "1000000000000", "999999999999.99"],
    ["KWD", "1000000000000", "999999999999.999"],
  ])("in %s the refusal names %s's maximum in its decimals", async (currency, amount, max) => {
    const response = await merchant("/api/payments", { json: { amount, currency } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      message: "The given data was invalid.",
      errors: { amount: [`The amount field must not be greater than ${max}.`] },
    });
  });

  it("KWD takes 999999999999.999, its largest amount", async () => {
    const response = await merchant("/api/payments", {
      json: { amount: "999999999999.999", currency: "KWD" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  });

  it("a payout of all available above the largest amount pays the largest and leaves the rest", async () => {
    await treasury("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Treasury", iban: "DE89370400440532013000" },
    });
    await earned(treasury, "999999999999", "CZK");
    await earned(treasury, "999999999999", "CZK");
    const paid = await treasury("/api/payouts", { json: { currency: "CZK" } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(dataOf<{ amount: string }>(paid).amount).toBe("999999999999.99");
    const left = dataOf<{ available: Array<{ currency: string; amount: string }> }>(
      await treasury("/api/balance"),
    );
    const czk = left.available.find((entry) => entry.currency === "CZK")!.amount;
    expect(Number(czk)).toBeGreaterThan(900_000_000_000);
  });
});

describe("a closed bank account", () => {
  it("a payout failed on the account marks it errored: payouts refused until another is saved", async () => {
    const ledger = await merchant("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Closed", iban: "GB33 BUKB 2020 1555 5555 55" },
    });
    expect(dataOf<{ status: string; failure_reason: null }>(ledger)).toMatchObject({
      status: "active",
      failure_reason: null,
    });
    await earned(merchant, "20.00", "EUR");
    const made = await merchant("/api/payouts", { json: { currency: "EUR" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = dataOf<{ id: number }>(made).id;
    const settled = await merchant(`/api/test-helpers/payouts/${id}/settle`, { json: {} });
    expect(dataOf<{ status: string }>(settled).status).toBe("failed");
    expect(
      dataOf<{ status: string; failure_reason: string }>(await merchant("/api/payout-account")),
    ).toMatchObject({
      status: "errored",
      failure_reason: "The bank account is closed.",
    });
    const refused = await merchant("/api/payouts", { json: { currency: "EUR" } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: "The given data was invalid.",
      errors: { payout_account: ["The payout account needs replacing: The bank account is closed."] },
    });
    const replaced = await merchant("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Open", iban: "DE89370400440532013000" },
    });
    expect(dataOf<{ status: string }>(replaced).status).toBe("active");
    expect((await merchant("/api/payouts", { json: { currency: "EUR" } })).status).toBe(201);
  });

  it("scheduled payouts skip a merchant whose account errored", async () => {
    const merchantId = await newMerchant("Errored");
    await setPayoutAccount(db, merchantId, { account_holder: "Errored", iban: "DE89370400440532013000" });
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount: "12.00", currency: "EUR" },
      { source: "cli", autoSettleMs: 0 },
    );
    await settlePayment(db, paymentId, { outcome: "completed" }, merchantId);
    await releaseMerchantBalance(db, merchantId);
    await db.execute(
      sql`update payout_accounts set status = 'errored', failure_reason = 'The bank account is closed.' where merchant_id = ${merchantId}`,
    );
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    while ((await runScheduledPayouts(db, tomorrow, 0, 5)) > 0);
    const payouts = await selectRows(db, sql`select id from payouts where merchant_id = ${merchantId}`);
    expect(payouts).toEqual([]);
  });
});

describe("disputed money", () => {
  it("the Overview's net volume subtracts what was not reinstated", async () => {
    const merchantId = await newMerchant("Disputed");
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount: "40.00", currency: "EUR" },
      { source: "cli", autoSettleMs: 0 },
    );
    await settlePayment(db, paymentId, { outcome: "completed" }, merchantId);
    const dispute = await db.transaction((tx) =>
      openDispute(tx, merchantId, paymentId, { reason: "fraudulent", inquiry: false }),
    );
    await acceptDispute(db, merchantId, Number(dispute.id));
    const stats = await getPaymentStats(db, merchantId, "EUR", 7);
    expect(stats.volume).toMatchObject({
      gross: "40.00",
      refunded: "0.00",
      disputed: "40.00",
      paymentFees: "1.46",
      disputeFees: "15.00",
      net: "0.00",
    });
  });
});
