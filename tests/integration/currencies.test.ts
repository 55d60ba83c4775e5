// Currencies over real HTTP (DESIGN.md, "Currencies"): each amount in its own currency's minor units, in and
// out of create, retrieve, list, events, refunds and payment links; refusals on `amount` and `currency` that
// write nothing; sums that never add two currencies (the customers API and the Overview's rollup); and the CLI as a
// child process printing each amount with its currency.
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { getPaymentStats, usedCurrencies } from "@/lib/payments/stats";
import { callApi, paymentTotal } from "../support/api-client";
import { runCliAsync } from "../support/cli-process";
import { db } from "../support/direct-db";
import { logInOverHttp } from "../support/http-session";

const baseUrl = inject("baseUrl");
const { tokens, seed } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
const unique = () => randomBytes(5).toString("hex");
const env = { apiUrl: baseUrl, apiKey: tokens.api };

type Payment = { id: number; amount: string; currency: string; status: string };

async function create(json: Record<string, unknown>): Promise<Payment> {
  const response = await api("/api/payments", { json, headers: { Prefer: "return=representation" } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { data: Payment }).data;
}

async function settle(id: number, outcome: "completed" | "failed") {
  expect((await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome } })).status).toBe(200);
}

describe("an amount in its currency's minor units", () => {
  it.each([
    ["JPY", 1500, "1500"],
    ["JPY", "1500", "1500"],
    ["KWD", "1.25", "1.250"],
    ["KWD", 1.25, "1.250"],
    ["EUR", "12.5", "12.50"],
    ["eur", 12.5, "12.50"],
    ["BHD", "0.005", "0.005"],
  ])(
    "%s %s is %s through create, retrieve, list and the payment.pending event",
    async (currency, amount, out) => {
      const externalId = `fx_${unique()}`;
      const created = await create({ amount, currency, external_id: externalId });
      expect(created).toMatchObject({ amount: out, currency: currency.toUpperCase() });
      const retrieved = (await api(`/api/payments/${created.id}`)).body as { data: Payment };
      expect(retrieved.data).toMatchObject({ amount: out, currency: currency.toUpperCase() });
      const listed = (await api(`/api/payments?external_id=${externalId}`)).body as { data: Payment[] };
      expect(listed.data).toEqual([
        expect.objectContaining({ amount: out, currency: currency.toUpperCase() }),
      ]);
      const events = (await api(`/api/events?payment_id=${created.id}`)).body as {
        data: Array<{ event: string; data: Payment }>;
      };
      const pending = events.data.find((event) => event.event === "payment.pending")!;
      expect(pending.data).toMatchObject({ amount: out, currency: currency.toUpperCase() });
    },
  );

  it("without a currency, the merchant's default (USD for the seed)", async () => {
    expect(await create({ amount: "3" })).toMatchObject({ amount: "3.00", currency: "USD" });
  });

  it.each([
    [{ amount: "1500.5", currency: "JPY" }, "amount", "The amount field must have at most 0 decimal places."],
    [{ amount: 1500.5, currency: "JPY" }, "amount", "The amount field must have at most 0 decimal places."],
    [{ amount: "1.2345", currency: "KWD" }, "amount", "The amount field must have at most 3 decimal places."],
    [{ amount: "12.505", currency: "EUR" }, "amount", "The amount field must have at most 2 decimal places."],
    [
      { amount: "1000000000000", currency: "JPY" },
      "amount",
      "The amount field must not be greater than 999999999999.",
    ],
    [{ amount: "10", currency: "XYZ" }, "currency", "The selected currency is invalid."],
    [{ amount: "10", currency: "XAU" }, "currency", "The selected currency is invalid."],
    [{ amount: "10", currency: "EU\u0000" }, "currency", "The selected currency is invalid."],
    [{ amount: "10", currency: 978 }, "currency", "The currency field must be a string."],
  ])("%j: 422 on %s, nothing written", async (json, field, message) => {
    const before = await paymentTotal(baseUrl, tokens.api);
    const response = await api("/api/payments", { json });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: "The given data was invalid.", errors: { [field]: [message] } });
    expect(await paymentTotal(baseUrl, tokens.api)).toBe(before);
  });

  it("the currency filter lists one currency, in any case; an unknown one is a 422", async () => {
    const customer = `cus_fx_filter_${unique()}`;
    const yen = await create({ amount: "700", currency: "JPY", customer_id: customer });
    await create({ amount: "7.00", currency: "EUR", customer_id: customer });
    const page = (await api(`/api/payments?customer_id=${customer}&currency=jpy`)).body as {
      data: Payment[];
      meta: { total: number };
      links: { first: string };
    };
    expect(page.data.map((payment) => payment.id)).toEqual([yen.id]);
    expect(page.meta.total).toBe(1);
    expect(page.links.first).toContain("currency=jpy");
    const refused = await api("/api/payments?currency=XYZ");
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ errors: { currency: ["The selected currency is invalid."] } });
  });

  it("idempotency: the same key and body replay; the same key in another currency is a 409", async () => {
    const key = `fx-${unique()}`;
    const first = await api("/api/payments", {
      json: { amount: "5", currency: "JPY" },
      headers: { "Idempotency-Key": key },
    });
    const again = await api("/api/payments", {
      json: { amount: "5", currency: "jpy" },
      headers: { "Idempotency-Key": key },
    });
    expect(first.status).toBe(201);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    const other = await api("/api/payments", {
      json: { amount: "5", currency: "KRW" },
      headers: { "Idempotency-Key": key },
    });
    expect(other.status).toBe(409);
  });
});

describe("refunds and payment links take their currency", () => {
  it("a JPY payment is refunded in yen; a fraction of a yen is a 422 on amount", async () => {
    const payment = await create({ amount: "1500", currency: "JPY" });
    await settle(payment.id, "completed");
    const fraction = await api(`/api/payments/${payment.id}/refunds`, { json: { amount: "0.5" } });
    expect(fraction.status).toBe(422);
    expect(fraction.body).toMatchObject({
      errors: { amount: ["The amount field must have at most 0 decimal places."] },
    });
    const refund = await api(`/api/payments/${payment.id}/refunds`, { json: { amount: 500 } });
    expect(refund.status).toBe(201);
    expect((refund.body as { data: unknown }).data).toMatchObject({ amount: "500", currency: "JPY" });
    const rest = await api(`/api/payments/${payment.id}/refunds`, { json: {} });
    expect((rest.body as { data: unknown }).data).toMatchObject({ amount: "1000", currency: "JPY" });
    const retrieved = (await api(`/api/payments/${payment.id}`)).body as { data: Record<string, string> };
    expect(retrieved.data).toMatchObject({ amount_refundable: "0", currency: "JPY" });
  });

  it("a KWD refund of 0.5 is 0.500", async () => {
    const payment = await create({ amount: "1.250", currency: "KWD" });
    await settle(payment.id, "completed");
    const refund = await api(`/api/payments/${payment.id}/refunds`, { json: { amount: "0.5" } });
    expect((refund.body as { data: unknown }).data).toMatchObject({ amount: "0.500", currency: "KWD" });
    const tooMuch = await api(`/api/payments/${payment.id}/refunds`, { json: { amount: "1" } });
    expect(tooMuch.body).toMatchObject({
      errors: { amount: ["The amount field must not be greater than 0.750."] },
    });
  });

  it("a payment link in yen makes its payments in yen", async () => {
    const link = await api("/api/payment-links", { json: { name: "Tea", amount: "1500", currency: "jpy" } });
    expect(link.status).toBe(201);
    expect((link.body as { data: unknown }).data).toMatchObject({ amount: "1500", currency: "JPY" });
    const refused = await api("/api/payment-links", {
      json: { name: "Tea", amount: "1500.5", currency: "JPY" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      errors: { amount: ["The amount field must have at most 0 decimal places."] },
    });
  });
});

describe("no figure adds two currencies", () => {
  it("a customer's volumes, one per currency; the Overview's figures for one currency at a time", async () => {
    const customer = `cus_fx_sums_${unique()}`;
    const payments = [
      await create({ amount: "12.50", currency: "EUR", customer_id: customer }),
      await create({ amount: "1500", currency: "JPY", customer_id: customer }),
      await create({ amount: "1.250", currency: "KWD", customer_id: customer }),
    ];
    for (const payment of payments) await settle(payment.id, "completed");
    const refund = await api(`/api/payments/${payments[1]!.id}/refunds`, { json: { amount: "300" } });
    const refundId = (refund.body as { data: { id: number } }).data.id;
    await api(`/api/test-helpers/refunds/${refundId}/settle`, { json: { outcome: "succeeded" } });
    const found = (await api(`/api/customers/${customer}`)).body as { data: { volumes: unknown } };
    expect(found.data.volumes).toEqual([
      { currency: "EUR", completed: "12.50", refunded: "0.00" },
      { currency: "JPY", completed: "1500", refunded: "300" },
      { currency: "KWD", completed: "1.250", refunded: "0.000" },
    ]);
  });

  it("the Overview's figures are one currency's at a time, each its own sum (the rollups, in-process)", async () => {
    const { merchantId } = await createMerchantWithOwner(db, {
      name: "Currencies",
      email: `fx-${unique()}@example.test`,
      password: "long enough pw",
    });
    const made: Array<[string, string]> = [
      ["12.50", "EUR"],
      ["7.25", "EUR"],
      ["1500", "JPY"],
      ["1.250", "KWD"],
      ["3.00", "USD"],
    ];
    for (const [amount, currency] of made) {
      const { paymentId } = await createPayment(
        db,
        merchantId,
        { amount, currency },
        { source: "cli", autoSettleMs: 0 },
      );
      await settlePayment(db, paymentId, { outcome: "completed" }, merchantId);
    }
    expect(await usedCurrencies(db, merchantId)).toEqual(["EUR", "JPY", "KWD", "USD"]);
    const gross = async (currency: string) =>
      (await getPaymentStats(db, merchantId, currency, "all")).volume.gross;
    expect(await gross("EUR")).toBe("19.75");
    expect(await gross("JPY")).toBe("1500");
    expect(await gross("KWD")).toBe("1.250");
    expect(await gross("USD")).toBe("3.00");
    const euros = await getPaymentStats(db, merchantId, "EUR", 7);
    expect(euros.byStatus.completed).toEqual({ count: 2, volume: "19.75" });
    expect(euros.series.at(-1)).toMatchObject({ count: 2, volume: "19.75" });
  });
});

describe("currencies in the dashboard's CSV export", () => {
  it("writes each amount, fee and net in its currency's minor units (JPY 1500, KWD 1.250, EUR 12.50)", async () => {
    const customer = `cus_csv_fx_${unique()}`;
    for (const [amount, currency] of [
      ["1500", "JPY"],
      ["1.25", "KWD"],
      ["12.5", "EUR"],
    ])
      await settle((await create({ amount, currency, customer_id: customer })).id, "completed");
    const { cookie } = await logInOverHttp(baseUrl, seed.email, seed.password);
    const response = await fetch(`${baseUrl}/dashboard/payments/export?q=${customer}`, {
      headers: { cookie },
    });
    expect(response.status).toBe(200);
    const [header, ...lines] = (await response.text()).trim().split("\n");
    const names = header!.split(",");
    const rows = lines.map((line): Record<string, string> =>
      Object.fromEntries(line.split(",").map((value, index) => [names[index]!, value])),
    );
    // 2.9% + 30 minor units, half up to the currency's minor unit: 73.5 yen is 74.
    expect(rows.map(({ amount, currency, fee, net }) => ({ amount, currency, fee, net }))).toEqual([
      { amount: "12.50", currency: "EUR", fee: "0.66", net: "11.84" },
      { amount: "1.250", currency: "KWD", fee: "0.066", net: "1.184" },
      { amount: "1500", currency: "JPY", fee: "74", net: "1426" },
    ]);
  });
});

describe("currencies in the CLI", () => {
  it("trigger --currency, and the lists print each amount with its currency (JPY 1500, KWD 1.250, EUR 12.50)", async () => {
    const customer = `cus_cli_fx_${unique()}`;
    for (const [amount, currency, out] of [
      ["1500", "JPY", "1500"],
      ["1.25", "KWD", "1.250"],
      ["12.5", "EUR", "12.50"],
    ]) {
      const triggered = await runCliAsync(
        [
          "trigger",
          "payment.completed",
          "--amount",
          amount!,
          "--currency",
          currency!,
          "--customer",
          customer,
        ],
        env,
      );
      expect(triggered.stdout).toContain(`(${out} ${currency}, pending)`);
    }
    const listed = await runCliAsync(["payments", "list", "--customer", customer, "--currency", "jpy"], env);
    expect(listed.stdout.trim().split("\n")).toEqual([expect.stringMatching(/  completed  1500 JPY  /)]);
    const all = await runCliAsync(["payments", "list", "--customer", customer, "--json"], env);
    const lines = all.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Payment);
    expect(lines.map((line) => [line.amount, line.currency])).toEqual([
      ["12.50", "EUR"],
      ["1.250", "KWD"],
      ["1500", "JPY"],
    ]);
    const customers = await runCliAsync(["customers", "list", "--limit", "100"], env);
    const line = customers.stdout.split("\n").find((each) => each.startsWith(`${customer} `))!;
    expect(line).toContain("completed 12.50 EUR, 1500 JPY, 1.250 KWD  refunded 0.00 EUR, 0 JPY, 0.000 KWD");
    const refused = await runCliAsync(
      ["trigger", "payment.pending", "--amount", "1500.5", "--currency", "JPY"],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The amount field must have at most 0 decimal places.");
  });
});
