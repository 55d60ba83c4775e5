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

  // Status applies on change, without a button; the empty fields are left out.
  const status = page.getByLabel("Status");
  await expect(async () => {
    await status.selectOption("failed");
    await expect(page).toHaveURL(new RegExp(`\\?status=failed&q=${externalId}$`), { timeout: 1000 });
  }).toPass();
  await expect(page.getByText("No payments match these filters.")).toBeVisible();

  const chips = page.getByRole("list", { name: "Active filters" });
  await expect(chips.getByRole("link")).toHaveText([/Matching: chip_/, /Status: failed/, "Clear all"]);
  // The chip's remove button is not named "Search": the label finds the search box alone.
  await expect(page.getByLabel("Search")).toHaveCount(1);
  await chips.getByRole("link", { name: "Remove filter Status: failed" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${externalId}$`));
  await expect(page.getByLabel("Status")).toHaveValue("");
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);

  await page.getByLabel("Per page").selectOption("10");
  await expect(page).toHaveURL(new RegExp(`\\?pageSize=10&q=${externalId}$`));
  await page.getByRole("link", { name: `Remove filter Matching: ${externalId}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments\?pageSize=10$/);
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("");
  await expect(page.getByRole("list", { name: "Active filters" })).toHaveCount(0);
});

test("display currency: chosen once, shown beside every amount; a crafted code is refused", async ({
  page,
}) => {
  await signUp(page, { name: "Currency Co", email: uniqueEmail("currency"), password: "a long password" });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  const currency = page.getByLabel("Currency (ISO 4217)");
  await currency.selectOption("EUR");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Amounts now show EUR.");

  await createTestPaymentInDashboard(page, "1250");
  await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText("1,250.00 EUR");
  await page.goto("/dashboard");
  await expect(page.getByText("volume 1,250.00 EUR")).toBeVisible();

  await page.goto("/dashboard/settings");
  await currency.evaluate((select: HTMLSelectElement) => {
    select.options[1]!.value = "EURO";
    select.selectedIndex = 1;
  });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText("The display currency must be an ISO 4217 code, such as EUR or USD."),
  ).toBeVisible();
  await page.reload();
  await expect(currency).toHaveValue("EUR");

  await currency.selectOption("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText(
    "Amounts now show no currency.",
  );
  await page.goto("/dashboard");
  await expect(page.getByText("volume 1,250.00", { exact: true })).toBeVisible();
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
