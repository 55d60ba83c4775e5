import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import {
  createTestPaymentInDashboard,
  expect,
  joinTeam,
  settleInDashboard,
  signUp,
  test,
  uniqueEmail,
} from "./fixtures";

/** Opens "Refund", sets the amount (the dialog starts at everything refundable) and submits. */
async function refundInDashboard(page: Page, amount?: string) {
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Refund payment \d+$/ });
  if (amount !== undefined) await dialog.getByLabel("Amount").fill(amount);
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  return dialog;
}

/** "Mark refund succeeded" on the newest pending refund, confirmed. */
async function settleNewestRefund(page: Page) {
  await page.getByTestId("refund-row").first().getByRole("button", { name: "Mark refund succeeded" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Mark refund succeeded" }).click();
}

/** A new merchant's owner with one 10.00 payment, marked paid; returns the payment's path. */
async function completedPayment(page: Page, owner: { name: string; email: string; password: string }) {
  await signUp(page, owner);
  await createTestPaymentInDashboard(page, "10.00");
  await page.getByRole("row").nth(1).getByRole("link").click();
  await expect(page).toHaveURL(/\/dashboard\/payments\/\d+$/);
  await settleInDashboard(page, "Mark as paid");
  await expect(page.getByText("Marked as paid.")).toBeVisible();
  return new URL(page.url()).pathname;
}

test("refund a completed payment in two parts: both on the page and the timeline, the list marks it, CSV and Overview count it", async ({
  page,
}) => {
  const owner = { name: "Refund Co", email: uniqueEmail("refunds"), password: "refund passphrase" };
  const paymentPath = await completedPayment(page, owner);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("$10.00");

  // The dialog starts at everything refundable; part of it is refunded.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByRole("dialog").getByLabel("Amount")).toHaveValue("10.00");
  await page.getByRole("dialog").getByLabel("Reason").selectOption("duplicate");
  await page.getByRole("dialog").getByLabel("Amount").fill("3.00");
  await page.getByRole("dialog").getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByText(/Refund \d+ created\./)).toBeVisible();
  const first = page.getByTestId("refund-row");
  await expect(first).toHaveCount(1);
  await expect(first).toContainText("3.00");
  await expect(first).toContainText("pending");
  await expect(first).toContainText("Duplicate payment");
  await settleNewestRefund(page);
  await expect(first).toContainText("succeeded");
  await expect(page.getByText("Partially refunded").first()).toBeVisible();

  // More than is left is refused, naming the maximum, and nothing is written.
  const dialog = await refundInDashboard(page, "8.00");
  await expect(dialog.getByText("The amount field must not be greater than 7.00.")).toBeVisible();
  await expect(page.getByTestId("refund-row")).toHaveCount(1);
  await dialog.getByLabel("Amount").fill("7.00");
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByTestId("refund-row")).toHaveCount(2);
  await settleNewestRefund(page);
  await expect(page.getByTestId("refund-row").first()).toContainText("succeeded");
  await expect(page.getByText("Refunded", { exact: true }).first()).toBeVisible();
  // Nothing is left to refund.
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);

  const timeline = page.getByTestId("timeline-event");
  await expect(timeline.filter({ hasText: "refund.created" })).toHaveCount(2);
  await expect(timeline.filter({ hasText: "refund.succeeded" })).toHaveCount(2);

  await page.goto("/dashboard/payments");
  // The list links without the environment (a link opens in the page's own); the address names it.
  const paymentPage = paymentPath.slice(paymentPath.indexOf("/dashboard/"));
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="${paymentPage}"]`) });
  await expect(row).toContainText("Refunded");
  await expect(row).not.toContainText("Partially");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8")
    .trim()
    .split("\n");
  expect(csv[0]).toBe(
    "id,external_id,customer_id,status,amount,currency,amount_refunded,fee,net,created_at,settled_at,failure_code,failure_reason",
  );
  expect(csv[1]).toContain(",completed,10.00,USD,10.00,");

  await page.goto("/dashboard");
  const figure = (label: string) => page.locator('dl[aria-label="Volume"] > div').filter({ hasText: label });
  await expect(figure("Gross volume")).toHaveText(/^Gross volume\$10\.00/);
  await expect(figure("Refunded")).toHaveText(/^Refunded\$10\.00/);
  await expect(figure("Net volume")).toHaveText(/^Net volume\$0\.00/);
});

test("a pending payment is canceled after a confirmation; a viewer sees no Refund or Cancel", async ({
  page,
  browser,
}) => {
  const owner = { name: "Cancel Co", email: uniqueEmail("cancel"), password: "cancel passphrase" };
  const completedPath = await completedPayment(page, owner);

  await createTestPaymentInDashboard(page, "4.00");
  await page.getByRole("row").nth(1).getByRole("link").click();
  await page.getByRole("button", { name: "Cancel payment" }).click();
  const confirm = page.getByRole("dialog", { name: /^Cancel payment \d+\?$/ });
  await confirm.getByRole("button", { name: "Go back" }).click();
  await expect(page.getByTestId("payment-status")).toContainText("pending");
  await page.getByRole("button", { name: "Cancel payment" }).click();
  await confirm.getByRole("button", { name: "Cancel payment" }).click();
  await expect(page.getByText("Payment canceled.")).toBeVisible();
  await expect(page.getByText("Canceled by the merchant.", { exact: true })).toBeVisible();
  await expect(page.getByTestId("payment-status")).toContainText("Canceled");
  await expect(page.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
  await expect(page.getByTestId("timeline-event").filter({ hasText: "payment.failed" })).toHaveCount(1);
  const canceledPath = new URL(page.url()).pathname;

  const viewer = await joinTeam(page, browser, "viewer", owner.password);
  await viewer.goto(completedPath);
  await expect(viewer.getByRole("heading", { level: 1 })).toHaveText("$10.00");
  await expect(viewer.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await viewer.goto(canceledPath);
  await expect(viewer.getByText("Canceled by the merchant.", { exact: true })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
  await viewer.context().close();
});
