import { lookInEveryView } from "./axe";
import {
  createPaymentViaApi,
  createTestPaymentInDashboard,
  expect,
  logInAs,
  settleInDashboard,
  signUp,
  test,
  uniqueEmail,
} from "./fixtures";

test("one search box finds by id, external id prefix in any case, and customer id", async ({
  page,
  seed,
  seedData,
}) => {
  const stamp = Date.now();
  const first = await createPaymentViaApi(page.request, seedData.tokens.api, {
    amount: 1250,
    external_id: `Srch_${stamp}_A`,
    customer_id: `cus_srch_${stamp}`,
  });
  await createPaymentViaApi(page.request, seedData.tokens.api, { amount: 8, external_id: `Srch_${stamp}_B` });
  const firstId = first.split("/").at(-1)!;
  await logInAs(page, seed);
  await page.goto("/dashboard/payments");
  const search = page.getByLabel("Search", { exact: true });
  const rows = page.getByRole("table").getByRole("row");

  // Each search waits for its own URL: the form is redrawn when the URL changes.
  const searchFor = async (term: string) => {
    await search.fill(term);
    await search.press("Enter");
    // The terms here are letters, digits, "_" and "%": nothing a regular expression reads specially.
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments\\?q=${encodeURIComponent(term)}$`));
  };
  await searchFor(`srch_${stamp}`);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText(`cus_srch_${stamp}`);
  await expect(rows.nth(2)).toContainText("1,250.00");

  await searchFor(`cus_srch_${stamp}`);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(`Srch_${stamp}_A`);

  await searchFor(firstId);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(`Srch_${stamp}_A`);

  // Wildcards are literal: "%" matches nothing here.
  await searchFor(`srch_${stamp}%`);
  await expect(page.getByText("No payments match these filters.")).toBeVisible();
});

test("filters: status applies at once, chips remove one filter, empty fields stay out of the URL", async ({
  page,
  seed,
  seedData,
}) => {
  const externalId = `chip_${Date.now()}`;
  await createPaymentViaApi(page.request, seedData.tokens.api, { amount: 5, external_id: externalId });
  await logInAs(page, seed);
  await page.goto(`/dashboard/payments?q=${externalId}&from=&to=&status=`);
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);

  // Status applies on change, without a button; the empty fields are left out. Chosen again while the URL has
  // not changed (a choice before hydration is lost). A combobox: once applied, the chip "Remove filter Status: …"
  // has the label too (a retry after a slow navigation met two, 2026-11-30).
  const status = page.getByRole("combobox", { name: /^Status/ });
  await expect(async () => {
    await status.selectOption("failed");
    await expect(page).toHaveURL(new RegExp(`\\?status=failed&q=${externalId}$`), { timeout: 5_000 });
  }).toPass();
  await expect(page.getByText("No payments match these filters.")).toBeVisible();

  const chips = page.getByRole("list", { name: "Active filters" });
  await expect(chips.getByRole("link")).toHaveText([/Matching: chip_/, /Status: failed/, "Clear all"]);
  // The chip's remove button is not named "Search": the label finds the search box alone.
  await expect(page.getByLabel("Search")).toHaveCount(1);
  await chips.getByRole("link", { name: "Remove filter Status: failed" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${externalId}$`));
  await expect(status).toHaveValue("");
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);

  await page.getByLabel("Per page").selectOption("10");
  await expect(page).toHaveURL(new RegExp(`\\?pageSize=10&q=${externalId}$`));
  await page.getByRole("link", { name: `Remove filter Matching: ${externalId}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments\?pageSize=10$/);
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("");
  await expect(page.getByRole("list", { name: "Active filters" })).toHaveCount(0);
});

test("three currencies: each amount in its own, three separate volumes on the Overview and a customer's page", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, { name: "Currency Co", email: uniqueEmail("currency"), password: "a long password" });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  const defaultCurrency = page.getByLabel("Default currency (ISO 4217)");
  await expect(defaultCurrency).toHaveValue("USD");
  await defaultCurrency.selectOption("EUR");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText(
    "New payments and links are now in EUR unless they name another.",
  );
  // A crafted code is refused, and changes nothing. Crafted on a fresh page: the save's refresh may still
  // re-render the form after its notice, putting the real option back (CI, a loaded machine).
  await page.reload();
  await expect(defaultCurrency).toHaveValue("EUR");
  await defaultCurrency.evaluate((select: HTMLSelectElement) => {
    select.options[0]!.value = "EURO";
    select.selectedIndex = 0;
  });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The selected default currency is invalid.")).toBeVisible();
  await page.reload();
  await expect(defaultCurrency).toHaveValue("EUR");

  // EUR by default, then yen and dinars chosen in the dialog; a fraction of a yen is refused there.
  const customerId = `cus_fx_${Date.now()}`;
  await createTestPaymentInDashboard(page, "12.5", { customerId });
  await page.getByRole("button", { name: "Create test payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a test payment" });
  await dialog.getByLabel("Amount").fill("1500.5");
  await dialog.getByLabel("Currency").selectOption("JPY");
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(dialog.getByText("The amount field must have at most 0 decimal places.")).toBeVisible();
  await page.keyboard.press("Escape");
  await createTestPaymentInDashboard(page, "1500", { currency: "JPY", customerId });
  await createTestPaymentInDashboard(page, "1.25", { currency: "KWD", customerId });
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.nth(1)).toContainText("KWD\u00a01.250");
  await expect(rows.nth(2)).toContainText("¥1,500");
  await expect(rows.nth(3)).toContainText("€12.50");
  // Paid, each from its page: the customer's completed volumes.
  for (const row of [1, 2, 3]) {
    await page.goto("/dashboard/payments");
    await rows.nth(row).getByRole("link").first().click();
    await settleInDashboard(page, "Mark as paid");
    await expect(page.getByText("Marked as paid.")).toBeVisible();
  }

  // The Overview: the default currency, with a switch; no figure adds two currencies.
  await page.goto("/dashboard");
  const switcher = page.getByRole("navigation", { name: "Currency" });
  await expect(switcher.getByRole("link")).toHaveText(["EUR", "JPY", "KWD"]);
  const volume = page.getByRole("definition").filter({ hasText: /^volume/ });
  const gross = page.getByLabel("Volume").getByRole("definition").first();
  await expect(gross).toHaveText("€12.50");
  await expect(page.getByLabel("Payments by status")).not.toContainText("¥");
  await switcher.getByRole("link", { name: "JPY" }).click();
  await expect(page).toHaveURL(/currency=JPY/);
  await expect(gross).toHaveText("¥1,500");
  await expect(volume.filter({ hasText: "¥1,500" })).toHaveCount(1);
  await switcher.getByRole("link", { name: "KWD" }).click();
  await expect(gross).toHaveText("KWD\u00a01.250");
  // The range keeps the currency chosen.
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "7 days" }).click();
  await expect(page).toHaveURL(/range=7.*currency=KWD|currency=KWD.*range=7/);
  await expect(gross).toHaveText("KWD\u00a01.250");

  // The customer's page: a line per currency, never one total.
  await page.goto(`/dashboard/customers/${customerId}`);
  const completed = page.getByRole("definition").filter({ hasText: "€" }).first();
  await expect(completed).toContainText("€12.50");
  await expect(completed).toContainText("¥1,500");
  await expect(completed).toContainText("KWD\u00a01.250");

  // The payments list filtered to one currency.
  await page.goto("/dashboard/payments");
  await page.getByLabel("Currency").selectOption("JPY");
  await expect(page).toHaveURL(/currency=JPY/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("¥1,500");
});

test("overview: get started until the first steps are done; a chart with presets and hover values", async ({
  page,
}) => {
  await signUp(page, { name: "Chart Co", email: uniqueEmail("chart"), password: "a long password" });
  const started = page.getByRole("region", { name: "Get started" });
  await expect(started).toContainText("0 of 3 done.");
  await started.getByRole("link", { name: "API keys →" }).click();
  await expect(page).toHaveURL(/\/dashboard\/api-keys$/);

  await createTestPaymentInDashboard(page, "40");
  // The chart counts completed payments only: it is paid first.
  await page.getByRole("row").nth(1).getByRole("link").click();
  await settleInDashboard(page, "Mark as paid");
  await expect(page.getByText("Marked as paid.")).toBeVisible();

  await page.goto("/dashboard");
  await expect(started).toContainText("1 of 3 done.");
  const chart = page.getByRole("figure");
  await expect(chart).toContainText("Completed volume per day, last 30 days (UTC)");
  // The range applies to the whole page, so its links sit above the figures, not in the chart.
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\?range=7$/);
  await expect(chart).toContainText("last 7 days");
  await expect(chart.getByRole("table")).toContainText("40.00");
  // Today is the last bar: hovering it shows its figures.
  await chart.locator("svg g").last().hover();
  await expect(page.getByRole("tooltip")).toContainText("1 completed");
  await expect(page.getByRole("tooltip")).toContainText("40.00");
  await chart.getByRole("button", { name: "Count" }).click();
  await expect(chart).toContainText("Completed payments per day, last 7 days (UTC)");

  // A made-up range falls back to 30 days.
  await page.goto("/dashboard?range=12");
  await expect(chart).toContainText("last 30 days");
});

test("the date filters count days of the report time zone chosen in Settings, and say which", async ({
  page,
}) => {
  await signUp(page, { name: "Zone Co", email: uniqueEmail("zone"), password: "a long password" });
  await createTestPaymentInDashboard(page, "7.25");
  const made = Date.now();
  // 25 hours apart, so the payment falls on a different day in each, whatever the hour now.
  const ahead = "Pacific/Kiritimati";
  const behind = "Pacific/Pago_Pago";
  const dayIn = (timeZone: string) => new Date(made).toLocaleDateString("en-CA", { timeZone });
  const useZone = async (zone: string) => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Report time zone (IANA)").selectOption(zone);
    await page.getByRole("button", { name: "Use this time zone" }).click();
    await expect(page.getByRole("status", { name: "Notifications" })).toContainText(zone);
  };
  const filterOn = async (day: string) => {
    await page.goto(`/dashboard/payments?from=${day}&to=${day}`);
    return page.getByRole("table").getByRole("row").filter({ hasText: "$7.25" });
  };

  await useZone(ahead);
  await expect(await filterOn(dayIn(ahead))).toHaveCount(1);
  await expect(page.getByRole("textbox", { name: `From (${ahead})` })).toHaveValue(dayIn(ahead));
  await expect(
    page.getByRole("link", { name: `Remove filter To (${ahead}): ${dayIn(ahead)}` }),
  ).toBeVisible();
  await lookInEveryView(page, "payments-zoned-filters");
  await useZone(behind);
  await expect(await filterOn(dayIn(ahead))).toHaveCount(0);
  await expect(page.getByText("No payments match these filters.")).toBeVisible();
  await expect(await filterOn(dayIn(behind))).toHaveCount(1);
  await expect(page.getByRole("textbox", { name: `To (${behind})` })).toHaveValue(dayIn(behind));
});
