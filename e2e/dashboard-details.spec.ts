import type { APIRequestContext, Page } from "@playwright/test";
import { showIn, VIEWS } from "./axe";
import { createPaymentViaApi, expect, logInAs, signUp, test, uniqueEmail, confirmItsYou } from "./fixtures";

// The dashboard's details from a Stripe user's walk: the Overview's ranges against the CSV, views that update
// without a reload, phones without sideways scrolling, the refund filter and the Refunds page, and the
// signature debugger on a capture older than 5 minutes. axe looks at these pages in all three modes in
// e2e/accessibility.spec.ts; here each is photographed in them. The History merchant (tests/support/seed-history.ts)
// has payments and refunds from 40 days ago beside today's, and an inbox capture received 10 minutes ago.

/** A USD figure as the page prints it ("$1,250.00"), as the CSV writes it ("1250.00"). */
const money = (text: string) => {
  expect(text).toMatch(/^\$/);
  return text.slice(1).replaceAll(",", "");
};

/** The UTC day `days` before today, as the date filters take it. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

type CsvRow = Record<string, string>;

/** The Payments page's CSV export for the filters, parsed (no field the seed makes needs quoting). */
async function exportCsv(request: APIRequestContext, query: string): Promise<CsvRow[]> {
  const response = await request.get(`/dashboard/payments/export?${query}`);
  expect(response.status()).toBe(200);
  const [header, ...lines] = (await response.text()).trim().split("\n");
  const names = header!.split(",");
  return lines.map((line) =>
    Object.fromEntries(line.split(",").map((value, index) => [names[index]!, value])),
  );
}

/** Sums of decimal strings in cents, so no float ever adds money. */
const sum = (values: string[]) => {
  const cents = values.reduce((total, value) => total + BigInt(value.replace(".", "")), 0n);
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
};

/** What the Overview shows: each status card's count and volume, and gross, refunded and net. */
async function overviewFigures(page: Page) {
  const card = (status: string) =>
    page.locator('dl[aria-label="Payments by status"] > div').filter({ hasText: status }).locator("dd");
  const figure = (label: string) =>
    page.locator('dl[aria-label="Volume"] > div').filter({ hasText: label }).locator("dd").first();
  const byStatus: Record<string, { count: string; volume: string }> = {};
  for (const status of ["pending", "completed", "failed"]) {
    const [count, volume] = await card(status).allTextContents();
    byStatus[status] = { count: count!, volume: money(volume!.replace("volume ", "")) };
  }
  return {
    byStatus,
    gross: money((await figure("Gross volume").textContent())!),
    refunded: money((await figure("Refunded").textContent())!),
    net: money((await figure("Net volume").textContent())!),
  };
}

test("the Overview's figures at 7 and 90 days are the CSV's sums for the same days", async ({
  page,
  seedData,
}) => {
  await logInAs(page, seedData.history);
  const expected = { 7: ["24.75", "7.25", "17.50"], 90: ["124.75", "27.25", "97.50"] } as const;
  for (const range of [7, 90] as const) {
    await page.goto(`/dashboard?range=${range}`);
    await expect(page.getByRole("figure")).toContainText(
      `Completed volume per day, last ${range} days (UTC)`,
    );
    const shown = await overviewFigures(page);
    const rows = await exportCsv(page.request, `from=${daysAgo(range - 1)}`);
    for (const status of ["pending", "completed", "failed"]) {
      const mine = rows.filter((row) => row.status === status);
      expect(shown.byStatus[status], `${status}, ${range} days`).toEqual({
        count: String(mine.length),
        volume: sum(mine.map((row) => row.amount!)),
      });
    }
    // The seed's refunds succeeded on their payment's day, so the CSV's refunded sums count the same days.
    const gross = sum(rows.filter((row) => row.status === "completed").map((row) => row.amount!));
    const refunded = sum(rows.map((row) => row.amount_refunded!));
    expect([shown.gross, shown.refunded, shown.net]).toEqual([gross, refunded, expected[range][2]]);
    expect([gross, refunded]).toEqual(expected[range].slice(0, 2));
  }
  for (const view of VIEWS) {
    await showIn(page, view);
    await page.goto("/dashboard?range=90");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/overview-90-${view.name}.png`, fullPage: true });
  }
});

/** Marks the document: a full reload loses the mark, a live update (a router refresh) keeps it. */
const markDocument = (page: Page) => page.evaluate(() => ((window as { liveMark?: number }).liveMark = 1));
const stillMarked = (page: Page) => page.evaluate(() => (window as { liveMark?: number }).liveMark === 1);

test("a capture, an event and a refund appear without a reload", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, { name: "Live Co", email: uniqueEmail("live"), password: "live passphrase" });
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill("live backend");
  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, "live passphrase");
  const token = (await page.getByTestId("new-token").textContent())!;
  const headers = { Authorization: `Bearer ${token}` };
  await page.goto("/dashboard/webhooks");
  await page.getByRole("button", { name: "Add inbox" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inbox");

  // The inbox page: the new payment's payment.pending is captured and shows up by itself.
  await markDocument(page);
  const paymentPath = await createPaymentViaApi(page.request, token, {
    amount: "30.00",
    return_url: "http://localhost/done",
  });
  const paymentId = paymentPath.split("/").at(-1)!;
  await expect(page.getByTestId("capture").filter({ hasText: "payment.pending" })).toContainText(
    "answered 200",
    {
      timeout: 45_000,
    },
  );
  expect(await stillMarked(page)).toBe(true);

  // The Events list: the payment settled through the API appears, with its amount and delivery result.
  await page.goto("/dashboard/events");
  await markDocument(page);
  const settled = await page.request.post(`/api/test-helpers/payments/${paymentId}/settle`, {
    headers,
    data: { outcome: "completed" },
  });
  expect(settled.status()).toBe(200);
  const completedRow = page.getByTestId("event-row").filter({ hasText: "payment.completed" });
  await expect(completedRow).toContainText("30.00", { timeout: 30_000 });
  await expect(completedRow).toContainText(/Delivered|Pending/);
  expect(await stillMarked(page)).toBe(true);

  // The payment's page: a refund made through the API joins the refunds and the timeline.
  await page.goto(paymentPath);
  await markDocument(page);
  const refund = await page.request.post(`/api/payments/${paymentId}/refunds`, {
    headers,
    data: { amount: "3.00" },
  });
  expect(refund.status()).toBe(201);
  const refundId = ((await refund.json()) as { data: { id: number } }).data.id;
  const timeline = page.getByTestId("timeline-event").filter({ hasText: "refund.created" });
  await expect(timeline).toContainText("Refund of $3.00 created.", { timeout: 30_000 });
  await expect(timeline.getByRole("link", { name: "Refund of $3.00" })).toHaveAttribute(
    "href",
    `#refund-${refundId}`,
  );
  await expect(page.getByTestId("refund-row")).toHaveCount(1);
  expect(await stillMarked(page)).toBe(true);
});

test("at 390 px a payment with refunds, Events and Sessions fit the screen, as cards", async ({
  page,
  seed,
  seedData,
}) => {
  test.setTimeout(180_000);
  const headers = { Authorization: `Bearer ${seedData.tokens.api}` };
  const paymentPath = await createPaymentViaApi(page.request, seedData.tokens.api, {
    amount: "48.00",
    external_id: `phone_${Date.now()}_with_a_long_external_reference`,
  });
  const paymentId = paymentPath.split("/").at(-1)!;
  await page.request.post(`/api/test-helpers/payments/${paymentId}/settle`, {
    headers,
    data: { outcome: "completed" },
  });
  for (const amount of ["4.00", "6.00"]) {
    const refund = await page.request.post(`/api/payments/${paymentId}/refunds`, {
      headers,
      data: { amount },
    });
    expect(refund.status()).toBe(201);
  }
  // A payment canceled by the merchant says so.
  const canceledPath = await createPaymentViaApi(page.request, seedData.tokens.api, {
    amount: "9.00",
    return_url: "http://localhost/done",
  });
  const cancel = await page.request.post(`/api/payments/${canceledPath.split("/").at(-1)}/cancel`, {
    headers,
  });
  expect(cancel.status()).toBe(200);

  await logInAs(page, seed);
  await page.goto(canceledPath);
  await expect(page.getByText("Canceled", { exact: true }).first()).toBeVisible();

  for (const view of VIEWS) {
    await showIn(page, view);
    for (const [name, path] of [
      ["payment-refunds", paymentPath],
      ["events", "/dashboard/events"],
      ["sessions", "/dashboard/settings/security"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(fits, `${name} fits at ${view.width} px (${view.name})`).toBe(true);
      await page.screenshot({ path: `test-results/${name}-${view.name}.png`, fullPage: true });
    }
    if (view.name === "phone") {
      // The refunds are cards with their Mark buttons on screen.
      await page.goto(paymentPath);
      const cards = page.getByRole("list", { name: "This payment's refunds" }).getByRole("listitem");
      await expect(cards).toHaveCount(2);
      // Its Mark buttons lie within the screen's width (scrolled to, not sideways).
      const mark = cards.first().getByRole("button", { name: "Mark refund succeeded" });
      await mark.scrollIntoViewIfNeeded();
      await expect(mark).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("table", { name: "This payment's refunds" })).toBeHidden();
    }
  }
});

test("the refund filter and the Refunds page", async ({ page, seedData }) => {
  await logInAs(page, seedData.history);
  await page.goto("/dashboard/payments");
  await page.getByRole("combobox", { name: "Refunds" }).selectOption("partial");
  await expect(page).toHaveURL(/refund=partial/);
  const rows = page.getByRole("table").getByRole("row");
  // A heading row and the two partly refunded payments (100.00 and 7.25).
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Partially refunded");
  await page.getByRole("combobox", { name: "Refunds" }).selectOption("full");
  await expect(page).toHaveURL(/refund=full/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("5.00");
  const csv = await exportCsv(page.request, "refund=full");
  expect(csv.map((row) => [row.amount, row.amount_refunded])).toEqual([["5.00", "5.00"]]);

  await page.goto("/dashboard/refunds");
  const refunds = page.getByRole("table", { name: "Refunds" }).getByRole("row");
  await expect(refunds).toHaveCount(4);
  for (const amount of ["20.00", "2.25", "5.00"])
    await expect(refunds.filter({ hasText: amount })).toHaveCount(1);
  await page
    .getByRole("navigation", { name: "Refund status" })
    .getByRole("link", { name: "Pending" })
    .click();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page.getByText("No pending refunds.").first()).toBeVisible();
  for (const view of VIEWS) {
    await showIn(page, view);
    for (const [name, path] of [
      ["refunds", "/dashboard/refunds"],
      ["payments-refunded", "/dashboard/payments?refund=partial"],
    ] as const) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `test-results/${name}-${view.name}.png`, fullPage: true });
    }
  }
});

test("the debugger judges a 10-minute-old capture as received; pasted by hand it is too old", async ({
  page,
  seedData,
}) => {
  await logInAs(page, seedData.history);
  await page.goto("/dashboard/webhooks");
  await page
    .getByRole("link", { name: /^inbox:\/\// })
    .first()
    .click();
  const capture = page.getByTestId("capture").filter({ hasText: "payment.completed" });
  await expect(capture).toContainText("signature verified");
  await capture.locator("summary").first().click();
  await capture.getByRole("link", { name: "Open in the signature debugger" }).click();
  await page.getByRole("button", { name: "Check signature" }).click();
  await expect(page.getByText("Valid signature")).toBeVisible();
  await expect(page.getByText(/its timestamp was within 300 seconds when it was received/)).toBeVisible();

  const endpoint = await page.getByLabel("Endpoint").inputValue();
  const headers = await page.getByLabel("Headers").inputValue();
  const body = await page.getByLabel("Body").inputValue();
  await page.goto("/dashboard/webhooks/debugger");
  await page.getByLabel("Endpoint").selectOption(endpoint);
  await page.getByLabel("Headers").fill(headers);
  await page.getByLabel("Body").fill(body);
  await page.getByRole("button", { name: "Check signature" }).click();
  await expect(page.getByText("Does not verify: timestamp_out_of_tolerance")).toBeVisible();
  await expect(page.getByText(/webhook-timestamp was \d+ seconds old/)).toBeVisible();
});
