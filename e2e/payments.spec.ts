import { readFileSync } from "node:fs";
import {
  createPaymentViaApi,
  expect,
  logInAs,
  navLink,
  settleInDashboard,
  signUp,
  test,
  uniqueEmail,
} from "./fixtures";

test("create a test payment, find it, open it, mark it paid and failed, export CSV", async ({
  page,
  seed,
}) => {
  const externalId = `qa_${Date.now()}`;
  // A customer of this run's alone, so its page's totals are this payment's.
  const customerId = `cus_${externalId}`;
  await logInAs(page, seed);
  await navLink(page, "Payments").click();
  await expect(page.getByRole("heading", { name: "Payments", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Create test payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a test payment" });
  await dialog.getByLabel("Amount").fill("12.345");
  await dialog.getByLabel("External ID").fill("x".repeat(256));
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(dialog.getByText("The amount field must have at most 2 decimal places.")).toBeVisible();
  await expect(
    dialog.getByText("The external id field must not be greater than 255 characters."),
  ).toBeVisible();
  await dialog.getByLabel("Amount").fill("");
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(dialog.getByText("The amount field is required.")).toBeVisible();

  await dialog.getByLabel("Amount").fill("42.5");
  await dialog.getByLabel("External ID").fill(externalId);
  await dialog.getByLabel("Customer ID").fill(customerId);
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(dialog.getByText(/Payment \d+ created\./)).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();

  const row = page.getByRole("row").filter({ hasText: externalId });
  await expect(row).toContainText("42.50");
  await expect(row).toContainText("pending");

  // Filters live in the URL: reload keeps them.
  await page.getByLabel("Search", { exact: true }).fill(externalId);
  await page.getByLabel("Per page").selectOption("10");
  await expect(page).toHaveURL(new RegExp(`pageSize=10.*q=${externalId}|q=${externalId}.*pageSize=10`));
  await page.reload();
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByText("1 payment", { exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 1");

  await row.getByRole("link").click();
  // Headed by its amount and status; metadata as key and value, not JSON text.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("$42.50");
  await expect(page.getByTestId("payment-status")).toContainText("pending");
  const metadata = page.getByRole("region", { name: "Metadata" });
  await expect(metadata.getByRole("term")).toHaveText(["customer_id"]);
  await expect(metadata.getByRole("definition")).toHaveText([customerId]);
  await expect(page.getByTestId("timeline-event")).toHaveCount(1);
  await settleInDashboard(page, "Mark as paid");
  await expect(page.getByText("Marked as paid.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("timeline-event")).toHaveCount(2);
  await expect(page.getByTestId("timeline-event").nth(1)).toContainText("payment.completed");
  await expect(page.getByRole("button", { name: "Mark as paid" })).toHaveCount(0);
  // Its fee at the merchant's price (2.9% + $0.30, half up) and what it added to the balance.
  await expect(page.getByText("$1.53", { exact: true })).toBeVisible();
  await expect(page.getByText("$40.97", { exact: true })).toBeVisible();
  const paymentUrl = page.url();

  // The payment links to its customer: its payments and what they add up to, from the rollup.
  await page.getByRole("link", { name: customerId }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(customerId);
  await expect(page.getByText("Completed volume").locator("..")).toContainText("42.50");
  await expect(
    page
      .getByRole("region", { name: "Payments", exact: true })
      .getByRole("row")
      .filter({ hasText: externalId }),
  ).toContainText("completed");
  await expect(page.getByRole("region", { name: "Refunds", exact: true })).toContainText("No refunds.");

  await page.goto(`/dashboard/payments?status=completed&q=${externalId}`);
  await expect(page.getByRole("row").filter({ hasText: externalId })).toContainText("completed");
  await page.goto(`/dashboard/payments?status=pending&q=${externalId}`);
  await expect(page.getByText("No payments match these filters.")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.goto(`/dashboard/payments?q=${externalId}`);
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8")
    .trim()
    .split("\n");
  expect(csv[0]).toBe(
    "id,external_id,customer_id,status,amount,currency,amount_refunded,fee,net,created_at,settled_at,failure_code,failure_reason",
  );
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(`,${externalId},${customerId},completed,42.50,USD,0.00,`);

  // Another merchant gets a not-found page for this payment's URL.
  await page.context().clearCookies();
  await signUp(page, { name: "Intruder", email: uniqueEmail("intruder"), password: "intruder passphrase" });
  expect((await page.goto(paymentUrl))!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "We couldn’t find that page." })).toBeVisible();
  await expect(page.getByText(externalId)).toHaveCount(0);
});

test("mark a pending payment as failed", async ({ page, request, seed, seedData }) => {
  const path = await createPaymentViaApi(request, seedData.tokens.api, { amount: 7 });
  await logInAs(page, seed);
  await page.goto(path);
  // No metadata reads as a dash, never as "null".
  await expect(page.getByRole("region", { name: "Metadata" })).toHaveText("Metadata—");
  await settleInDashboard(page, "Mark as failed");
  await expect(page.getByText("Marked as failed.")).toBeVisible();
  await expect(page.getByText("Marked as failed by hand.", { exact: true })).toBeVisible();
  await expect(page.getByText("Failed: Marked as failed by hand.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("timeline-event").nth(1)).toContainText("payment.failed");
});

test("the overview shows counts by status, the 30-day chart and recent payments", async ({ page, seed }) => {
  await logInAs(page, seed);
  await expect(page.getByRole("heading", { name: seed.name })).toBeVisible();
  await expect(page.getByRole("figure")).toContainText("Completed volume per day, last 30 days (UTC)");
  await expect(page.getByRole("heading", { name: "Recent payments" })).toBeVisible();
  for (const status of ["pending", "completed", "failed"])
    await expect(page.getByRole("term").filter({ hasText: status })).toBeVisible();
});
