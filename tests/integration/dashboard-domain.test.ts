import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import { getMerchantProfile, getOnboardingProgress, setDefaultCurrency } from "@/lib/accounts/merchants";
import { errorResponse } from "@/lib/api/responses";
import { createPayment } from "@/lib/payments/create-payment";
import { readPaymentFilters } from "@/lib/payments/filters";
import { listPayments } from "@/lib/payments/queries";
import { searchPayments } from "@/lib/payments/search";
import { settleDuePayments, settlePayment } from "@/lib/payments/settlement";
import { getPaymentStats } from "@/lib/payments/stats";
import { createRefund } from "@/lib/refunds/create-refund";
import { settleRefund } from "@/lib/refunds/settlement";
import { sendTestEvent } from "@/lib/webhooks/endpoint-events";
import { getEndpointHealth } from "@/lib/webhooks/endpoint-health";
import {
  createWebhookEndpoint,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
} from "@/lib/webhooks/endpoints";
import { db, newMerchant } from "../support/direct-db";

const pay = (merchantId: number, input: Record<string, unknown>) =>
  createPayment(db, merchantId, input, { source: "cli", autoSettleMs: 0 });

/** The page's external ids; every search here fits one page, so its total counts exactly those. */
const search = async (merchantId: number, query: Record<string, string>) => {
  const page = await searchPayments(db, merchantId, readPaymentFilters(query).filters);
  expect(page).toMatchObject({ total: page.items.length, totalIsCapped: false });
  return page.items.map((item) => item.external_id);
};

describe("the dashboard's search box", () => {
  let merchantId: number;
  let otherMerchantId: number;
  let firstId: number;
  beforeAll(async () => {
    merchantId = await newMerchant("search");
    otherMerchantId = await newMerchant("search-other");
    ({ paymentId: firstId } = await pay(merchantId, {
      amount: 1,
      external_id: "Order_100",
      customer_id: "cus_A",
    }));
    await pay(merchantId, { amount: 2, external_id: "order_1001", customer_id: "cus_B" });
    await pay(merchantId, { amount: 3, external_id: "promo50%_off", customer_id: "cus_A" });
    await pay(merchantId, { amount: 4, external_id: "promo50xyoff" });
    await pay(otherMerchantId, { amount: 5, external_id: "Order_100", customer_id: "cus_A" });
    // Found twice over (its external id and its customer): listed and counted once.
    await pay(merchantId, { amount: 6, external_id: "cus_A-7", customer_id: "cus_A" });
    await pay(merchantId, { amount: 7, external_id: "cus_Apple", customer_id: "cus_B" });
  });

  it("finds external ids by prefix in any case, newest first", async () => {
    expect(await search(merchantId, { q: "ORDER_100" })).toEqual(["order_1001", "Order_100"]);
  });
  it("finds a customer's payments by its id or a prefix of it, as typed", async () => {
    expect(await search(merchantId, { q: "cus_A" })).toEqual([
      "cus_Apple",
      "cus_A-7",
      "promo50%_off",
      "Order_100",
    ]);
    expect(await search(merchantId, { q: "cus_" })).toEqual([
      "cus_Apple",
      "cus_A-7",
      "promo50%_off",
      "order_1001",
      "Order_100",
    ]);
    // cus_B alone: its pages are the customer filter's.
    expect(await search(merchantId, { q: "cus_B" })).toEqual(["cus_Apple", "order_1001"]);
    expect(await search(merchantId, { q: "cus_B", status: "failed" })).toEqual([]);
    expect(await search(merchantId, { q: "cus_b" })).toEqual([]);
    expect(await search(merchantId, { q: "cus%" })).toEqual([]);
  });
  it("finds a payment by id", async () => {
    expect(await search(merchantId, { q: String(firstId) })).toEqual(["Order_100"]);
  });
  it("treats % and _ as themselves", async () => {
    expect(await search(merchantId, { q: "PROMO50%_" })).toEqual(["promo50%_off"]);
    expect(await search(merchantId, { q: "order%" })).toEqual([]);
  });
  it("combines with the other filters", async () => {
    expect(await search(merchantId, { q: "cus_A", status: "failed" })).toEqual([]);
    expect(await search(merchantId, { q: "cus_A", status: "pending" })).toHaveLength(4);
  });
  it("never returns another merchant's payment, nor one by its id", async () => {
    const [other] = await selectRows<{ id: string | number }>(
      db,
      sql`select id from payments where merchant_id = ${otherMerchantId}`,
    );
    const otherId = String(other!.id);
    expect(await search(merchantId, { q: otherId })).toEqual([]);
    expect(await search(otherMerchantId, { q: "cus_A" })).toEqual(["Order_100"]);
  });
});

describe("the unfiltered list's pages (the API's and the dashboard's)", () => {
  // Page 1 counts by the newest payment's sequence number, later pages by the merchant's sequence row.
  const pages = async (merchantId: number) => {
    const apiPages = [1, 2, 3].map((page) => listPayments(db, merchantId, page, 5));
    const dashboardPages = [1, 2].map((page) =>
      searchPayments(db, merchantId, readPaymentFilters({ page: String(page), pageSize: "10" }).filters),
    );
    return Promise.all([...apiPages, ...dashboardPages]).then((all) =>
      all.map((page) => ({ total: page.total, ids: page.items.map((item) => item.external_id).join(" ") })),
    );
  };

  it("gives every page the same total, from no payment to a few", async () => {
    const merchantId = await newMerchant("pages");
    expect(await pages(merchantId)).toEqual(Array(5).fill({ total: 0, ids: "" }));
    for (let n = 1; n <= 12; n++) await pay(merchantId, { amount: 1, external_id: `p${n}` });
    await pay(await newMerchant("pages-other"), { amount: 1, external_id: "other" });
    expect(await pages(merchantId)).toEqual([
      { total: 12, ids: "p12 p11 p10 p9 p8" },
      { total: 12, ids: "p7 p6 p5 p4 p3" },
      { total: 12, ids: "p2 p1" },
      { total: 12, ids: "p12 p11 p10 p9 p8 p7 p6 p5 p4 p3" },
      { total: 12, ids: "p2 p1" },
    ]);
  });
});

describe("default currency", () => {
  it("is USD for a new merchant, takes an ISO 4217 code in any case, and refuses anything else", async () => {
    const merchantId = await newMerchant("currency");
    expect((await getMerchantProfile(db, merchantId))!.defaultCurrency).toBe("USD");
    expect(await setDefaultCurrency(db, merchantId, { default_currency: " eur " })).toBe("EUR");
    for (const bad of ["EURO", "XXX", "XAU", "€", "usd1", 42, "", "E\0R"]) {
      await expect(setDefaultCurrency(db, merchantId, { default_currency: bad })).rejects.toMatchObject({
        kind: "validation",
      });
    }
    expect((await getMerchantProfile(db, merchantId))!.defaultCurrency).toBe("EUR");
    // A payment created without a currency is in the default; one that names another keeps it.
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount: "12.5" },
      { source: "cli", autoSettleMs: 0 },
    );
    const { paymentId: yen } = await createPayment(
      db,
      merchantId,
      { amount: 1500, currency: "jpy" },
      { source: "cli", autoSettleMs: 0 },
    );
    const rows = await selectRows<{ id: string | number; amount: string; currency: string }>(
      db,
      sql`select id, amount::text, currency from payments where id in (${paymentId}, ${yen}) order by id`,
    );
    expect(rows.map((row) => [row.amount, row.currency])).toEqual([
      ["12.50", "EUR"],
      ["1500", "JPY"],
    ]);
  });
});

describe("editing a webhook endpoint", () => {
  it("changes only what is sent, within the merchant, with the same URL rules", async () => {
    const merchantId = await newMerchant("edit");
    const otherMerchantId = await newMerchant("edit-other");
    const endpoint = await createWebhookEndpoint(db, merchantId, {
      url: "https://example.com/a",
      description: "first",
    });
    const other = await createWebhookEndpoint(db, otherMerchantId, { url: "https://example.com/other" });

    const edited = await updateWebhookEndpoint(db, merchantId, endpoint.id, { events: ["payment.failed"] });
    expect(edited).toMatchObject({
      url: "https://example.com/a",
      description: "first",
      eventTypes: ["payment.failed"],
    });

    for (const bad of [
      { url: "ftp://example.com" },
      { url: "" },
      { events: [] },
      { events: ["payment.refunded"] },
    ]) {
      await expect(updateWebhookEndpoint(db, merchantId, endpoint.id, bad)).rejects.toMatchObject({
        kind: "validation",
      });
    }
    await expect(
      updateWebhookEndpoint(db, merchantId, other.id, { url: "https://example.com/stolen" }),
    ).rejects.toMatchObject({ kind: "not_found" });
    const [untouched] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, other.id));
    expect(untouched!.url).toBe("https://example.com/other");
  });

  it("warns about a URL the merchant already has, unless confirmed; other merchants' URLs do not count", async () => {
    const merchantId = await newMerchant("dup");
    await createWebhookEndpoint(db, merchantId, { url: "https://example.com/same" });
    await expect(
      createWebhookEndpoint(db, merchantId, { url: "https://example.com/same" }),
    ).rejects.toMatchObject({
      kind: "conflict",
    });
    const second = await createWebhookEndpoint(
      db,
      merchantId,
      { url: "https://example.com/second" },
      { allowDuplicateUrl: false },
    );
    await expect(
      updateWebhookEndpoint(db, merchantId, second.id, { url: "https://example.com/same" }),
    ).rejects.toMatchObject({ kind: "conflict" });
    // Saving an endpoint with its own URL is not a duplicate.
    await updateWebhookEndpoint(db, merchantId, second.id, { url: "https://example.com/second" });
    await createWebhookEndpoint(
      db,
      merchantId,
      { url: "https://example.com/same" },
      { allowDuplicateUrl: true },
    );
    await createWebhookEndpoint(db, await newMerchant("dup-other"), { url: "https://example.com/same" });
  });
});

describe("a test event", () => {
  it("is refused for a disabled endpoint (a 409 where the API answers it) and queues nothing", async () => {
    const merchantId = await newMerchant("test-event");
    const endpoint = await createWebhookEndpoint(db, merchantId, { url: "https://example.com/test-event" });
    const deliveries = async () =>
      (
        await selectRows(
          db,
          sql`select 1 from webhook_deliveries where merchant_id = ${merchantId} and endpoint_id = ${endpoint.id}`,
        )
      ).length;
    await setWebhookEndpointEnabled(db, merchantId, endpoint.id, false);
    const refusal = await sendTestEvent(db, merchantId, endpoint.id, { event: "payment.completed" }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ kind: "conflict" });
    const answer = errorResponse(refusal);
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.body!)).toEqual({
      message: "This endpoint is disabled: enable it to send a test event.",
    });
    expect(await deliveries()).toBe(0);

    await setWebhookEndpointEnabled(db, merchantId, endpoint.id, true);
    await sendTestEvent(db, merchantId, endpoint.id, { event: "payment.completed" });
    expect(await deliveries()).toBe(1);
  });
});

describe("endpoint health and onboarding", () => {
  it("counts the last 24 hours of attempts per endpoint, and the latest result", async () => {
    const merchantId = await newMerchant("health");
    expect(await getOnboardingProgress(db, merchantId)).toEqual({
      hasApiKey: false,
      hasPayment: false,
      hasEndpoint: false,
    });
    const endpoint = await createWebhookEndpoint(db, merchantId, { url: "https://example.com/health" });
    await pay(merchantId, { amount: 1 });
    const [delivery] = await selectRows<{ id: number }>(
      db,
      sql`select id from webhook_deliveries where merchant_id = ${merchantId}`,
    );
    const rows = [
      ["30 hours", 200, null],
      ["3 hours", 500, null],
      ["2 hours", 200, null],
      ["1 hour", null, "Timed out"],
    ] as const;
    for (const [ago, status, error] of rows)
      await db.execute(sql`insert into webhook_attempts (merchant_id, delivery_id, attempted_at, response_status, latency_ms, error)
        values (${merchantId}, ${delivery!.id}, now() - ${ago}::interval, ${status}, 10, ${error})`);
    const health = (await getEndpointHealth(db, merchantId)).get(endpoint.id);
    expect(health).toMatchObject({ attempts: 3, succeeded: 1, lastResult: "Timed out" });
    expect(await getOnboardingProgress(db, merchantId)).toEqual({
      hasApiKey: false,
      hasPayment: true,
      hasEndpoint: true,
    });
    expect((await getEndpointHealth(db, await newMerchant("health-other"))).size).toBe(0);
  });
});

describe("the Overview's rollup", () => {
  it("matches a count over the payments after creates, hand settlements and the settler", async () => {
    const merchantId = await newMerchant("rollup");
    const ids: number[] = [];
    for (const amount of ["10.10", "20.20", "2500.00", "0.01", "999.99"])
      ids.push(
        (await createPayment(db, merchantId, { amount }, { source: "cli", autoSettleMs: 1 })).paymentId,
      );
    await settlePayment(db, ids[0]!, { outcome: "failed" }, merchantId);
    await settlePayment(db, ids[1]!, { outcome: "completed" }, merchantId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The settler takes the rest: 2500.00 fails (the simulator's test range), the others complete.
    while ((await settleDuePayments(db, 2)) > 0);
    const fromRollup = (await getPaymentStats(db, merchantId, "USD", 7)).byStatus;
    const counted = await selectRows<{ status: string; count: number | string; volume: string }>(
      db,
      sql`select status, count(*) as count, sum(amount)::text as volume from payments
          where merchant_id = ${merchantId} group by status`,
    );
    const expected = Object.fromEntries(
      counted.map((row) => [row.status, { count: Number(row.count), volume: row.volume }]),
    );
    expect(fromRollup).toEqual({ pending: { count: 0, volume: "0.00" }, ...expected });
    expect(fromRollup.failed).toEqual({ count: 2, volume: "2510.10" });
    // The chart: completed payments, and refunds by the day they succeeded.
    const { refundId } = await createRefund(db, merchantId, ids[1]!, { amount: "5.05" }, { autoSettleMs: 0 });
    await settleRefund(db, refundId, { outcome: "succeeded" }, merchantId);
    const stats = await getPaymentStats(db, merchantId, "USD", 7);
    expect(stats.series).toHaveLength(7);
    expect(stats.series.at(-1)).toEqual({
      day: new Date().toISOString().slice(0, 10),
      count: 3,
      volume: "1020.20",
      refunds: 1,
      refunded: "5.05",
    });
    // Fees apart from net volume: 2.9% + 0.30 of each completed payment (0.89, 0.30, 29.30).
    expect(stats.volume).toEqual({
      gross: "1020.20",
      refunded: "5.05",
      disputed: "0.00",
      paymentFees: "30.49",
      disputeFees: "0.00",
      net: "1015.15",
      refunds: 1,
    });
    // All time: by month, from the first payment's.
    const allTime = await getPaymentStats(db, merchantId, "USD", "all");
    expect(allTime.bucket).toBe("month");
    expect(allTime.series).toEqual([
      { ...stats.series.at(-1)!, day: `${new Date().toISOString().slice(0, 7)}-01` },
    ]);
  });
});

describe("a test payment that waits for a payer (the dashboard's 'Wait for a payer')", () => {
  it("is left by the simulator's settler, with or without a return_url; another is settled", async () => {
    const merchantId = await newMerchant("waits");
    const create = (waitForPayer: boolean, input: Record<string, unknown> = {}) =>
      createPayment(
        db,
        merchantId,
        { amount: "3.00", ...input },
        { source: "dashboard", autoSettleMs: 1, waitForPayer },
      );
    const waiting = await create(true);
    const returning = await create(true, { return_url: "https://shop.example/done" });
    const settled = await create(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    while ((await settleDuePayments(db, 50)) > 0);
    const statuses = await selectRows<{ id: number | string; status: string; settle_at: Date | null }>(
      db,
      sql`select id, status, settle_at from payments where merchant_id = ${merchantId} order by id`,
    );
    expect(statuses.map((row) => [Number(row.id), row.status, row.settle_at])).toEqual([
      [waiting.paymentId, "pending", null],
      [returning.paymentId, "pending", null],
      [settled.paymentId, "completed", expect.anything()],
    ]);
    expect(waiting.checkoutToken).toMatch(/^[0-9]+_[0-9A-Za-z]{43}$/);
  });
});
