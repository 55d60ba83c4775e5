import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { lookInEveryView } from "./axe";
import { expect, logInAs, navLink, test } from "./fixtures";

// The accountant's month in the dashboard (DESIGN.md, "Reports"): the seeded `accountant` merchant's last UTC
// month holds every kind of balance transaction (tests/support/seed-accountant.ts), and no other browser test
// moves its money. Each page is looked at in light, dark and on a phone, with axe finding nothing.

/** The download a click starts, as lines. */
async function downloadLines(page: Page, link: string): Promise<string[]> {
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: link }).click();
  return readFileSync(await (await download).path(), "utf8")
    .trimEnd()
    .split("\n");
}

const monthName = (first: string) =>
  new Date(`${first}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

test("Reports: last month's summary equals the ledger, and its CSVs are the table and its transactions", async ({
  page,
  seedData,
}) => {
  const { accountant } = seedData;
  await logInAs(page, accountant);
  await navLink(page, "Reports").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports");
  // The current month in the merchant's default currency, to begin with.
  await expect(
    page.getByRole("navigation", { name: "Report currency" }).getByRole("link", { name: "USD" }),
  ).toHaveAttribute("aria-current", "true");
  await page.getByRole("navigation", { name: "Report currency" }).getByRole("link", { name: "EUR" }).click();
  await expect(page.getByRole("heading", { level: 2 })).toContainText("EUR balance summary");
  const monthForm = page.getByRole("form", { name: "Report of a month" });
  await monthForm.getByLabel("Month").selectOption({ label: monthName(accountant.month) });
  await monthForm.getByRole("button", { name: "Show month" }).click();
  await expect(page).toHaveURL(new RegExp(`month=${accountant.month.slice(0, 7)}`));
  const table = page.getByRole("table", { name: "Balance summary" });
  await expect(table.getByRole("row", { name: /Opening balance/ })).toContainText("€0.00");
  await expect(table.getByRole("row", { name: /^Payment\b/ })).toContainText("4");
  await expect(table.getByRole("row", { name: /^Payment\b/ })).toContainText("€175.00");
  for (const line of ["Refund", "Dispute", "Dispute won", "Payout", "Payout returned"])
    await expect(table.getByRole("rowheader", { name: line, exact: true })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Equals the ledger" })).toBeVisible();
  await lookInEveryView(page, "reports-month");
  // On a phone (390 px): every figure shows without sideways scrolling, the closing balance among them.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("closing-balance")).toBeVisible();
  await expect(page.getByTestId("closing-balance")).toContainText(/€[\d,]+\.\d{2}/);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The summary CSV is the table; the transactions CSV holds as many rows as the table counts.
  const summary = await downloadLines(page, "Download summary CSV");
  expect(summary[0]).toBe("currency,timezone,from,to,line,count,amount,fee,net");
  expect(summary[1]).toMatch(
    new RegExp(`^EUR,UTC,${accountant.month},\\d{4}-\\d{2}-01,opening_balance,,,,0\\.00$`),
  );
  expect(summary.find((line) => line.includes(",payment,"))).toMatch(/,payment,4,175\.00,/);
  const counted = summary.slice(1).reduce((sum, line) => sum + Number(line.split(",")[5] || 0), 0);
  const transactions = await downloadLines(page, "Download transactions CSV");
  expect(transactions[0]).toBe(
    "id,type,source_id,payment_id,external_id,customer_id,currency,amount,fee,net,status,available_on,payout_id,created_at",
  );
  expect(transactions.length - 1).toBe(counted);
  const closing = summary
    .find((line) => line.includes(",closing_balance,"))!
    .split(",")
    .at(-1)!;
  const net = transactions
    .slice(1)
    .reduce((sum, line) => sum + Math.round(Number(line.split(",")[9]) * 100), 0);
  expect(net).toBe(Math.round(Number(closing) * 100));

  // The Payout reconciliation tab, the same month: each payout's lines, what was left, and its CSV.
  await page
    .getByRole("navigation", { name: "Reports" })
    .getByRole("link", { name: "Payout reconciliation" })
    .click();
  await expect(page.getByRole("heading", { level: 2 })).toContainText("EUR payouts");
  await expect(page.getByRole("heading", { level: 3, name: /^Payout \d+/ }).first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: /Not yet paid out/ })).toBeVisible();
  await lookInEveryView(page, "reports-payout-reconciliation");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("unpaid-total")).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });
  const reconciliation = await downloadLines(page, "Download reconciliation CSV");
  expect(reconciliation[0]).toBe(
    "currency,timezone,section,payout_id,payout_status,payout_amount,payout_created_at,arrival_date,type,count,amount,fee,net",
  );
  expect(reconciliation.slice(1).some((line) => line.includes(",payout,"))).toBe(true);
  await page
    .getByRole("navigation", { name: "Reports" })
    .getByRole("link", { name: "Balance summary" })
    .click();

  // Two dates: a bad one is named; the 1st to the 10th of last month is shown as such.
  const datesForm = page.getByRole("form", { name: "Report of two dates" });
  await datesForm.getByLabel("From (UTC)").fill("2026-02-30");
  await datesForm.getByLabel("To (UTC, included)").fill(accountant.month);
  await datesForm.getByRole("button", { name: "Show dates" }).click();
  await expect(page.getByText("The from date must be a real day (YYYY-MM-DD).")).toBeVisible();
  const tenth = `${accountant.month.slice(0, 8)}10`;
  await datesForm.getByLabel("From (UTC)").fill(accountant.month);
  await datesForm.getByLabel("To (UTC, included)").fill(tenth);
  await datesForm.getByRole("button", { name: "Show dates" }).click();
  await expect(page.getByRole("heading", { level: 2 })).toContainText(
    /EUR balance summary, \w+ 1, \d{4} – \w+ 10, \d{4}/,
  );
  await expect(page.getByRole("status").filter({ hasText: "Equals the ledger" })).toBeVisible();
  await lookInEveryView(page, "reports-dates");
});

test("All transactions: filtered and paged, a row opens its object, the CSV is the filter; another merchant sees none", async ({
  page,
  browser,
  seedData,
}) => {
  const { accountant, other } = seedData;
  await logInAs(page, accountant);
  await page.goto("/dashboard/balance");
  await page.getByRole("link", { name: "All transactions →" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All transactions");
  const filters = page.getByRole("search", { name: "Filter balance transactions" });
  await filters.getByLabel("Type").selectOption("payment");
  await filters.getByLabel("Currency").selectOption("EUR");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/type=payment/);
  const table = page.getByRole("region", { name: "All transactions" });
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(page.getByText("4 transactions")).toBeVisible();
  await expect(table).toContainText("order-100.00");
  await lookInEveryView(page, "all-transactions");

  const csv = await downloadLines(page, "Download CSV");
  expect(csv).toHaveLength(5);
  expect(csv.slice(1).every((line) => line.split(",")[1] === "payment")).toBe(true);
  expect(
    csv
      .slice(1)
      .map((line) => line.split(",")[4])
      .sort(),
  ).toEqual(["order-10.00", "order-100.00", "order-25.00", "order-40.00"]);

  // A row opens its payment.
  await table.getByRole("row").filter({ hasText: "order-40.00" }).getByRole("cell").nth(2).click();
  await expect(page).toHaveURL(/\/dashboard\/payments\/\d+$/);
  await expect(page.getByText("order-40.00").first()).toBeVisible();

  // A payout's filter: what it carried; a bad payout id is named, and filters nothing.
  const payouts = (await (
    await page.request.get("/api/payouts", {
      headers: { Authorization: `Bearer ${seedData.tokens.accountant}` },
    })
  ).json()) as { data: Array<{ id: number; status: string }> };
  const paid = payouts.data.find((payout) => payout.status === "paid")!;
  await page.goto(`/dashboard/balance/transactions?payout=${paid.id}`);
  await expect(page.getByText(/^[1-9]\d* transactions?$/)).toBeVisible();
  const count = await page.getByText(/^[1-9]\d* transactions?$/).textContent();
  // As the CLI takes it: po_ and the id.
  await page.goto(`/dashboard/balance/transactions?payout=po_${paid.id}`);
  await expect(page.getByText(count!, { exact: true })).toBeVisible();
  await page.goto("/dashboard/balance/transactions?payout=abc&from=2026-02-30");
  await expect(page.getByText("The payout must be a payout's id: 12 or po_12.")).toBeVisible();
  await expect(page.getByText("The from date must be a real day (YYYY-MM-DD).")).toBeVisible();
  await lookInEveryView(page, "all-transactions-errors");

  // Another merchant filtering by this payout finds nothing, as if it did not exist.
  const intruder = await browser.newPage();
  await logInAs(intruder, other);
  await intruder.goto(`/dashboard/balance/transactions?payout=${paid.id}`);
  await expect(intruder.getByText("No balance transactions match these filters.").first()).toBeVisible();
  await intruder.close();
});
