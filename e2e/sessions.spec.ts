import type { Browser, Page } from "@playwright/test";
import { expect, logInAs, logOut, navLink, signUp, test, uniqueEmail } from "./fixtures";

/** A second browser holding a copy of the first one's cookies, as a stolen or forgotten cookie would be. */
async function copyOfSession(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  return context.newPage();
}

async function openCreatePaymentDialog(page: Page) {
  await page.goto("/dashboard/payments");
  await page.getByRole("button", { name: "Create test payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a test payment" });
  await dialog.getByLabel("Amount").fill("5.00");
  return dialog;
}

test("after logout, the copied cookie opens no page and runs no action", async ({ browser, page }) => {
  const account = { name: "Session Co", email: uniqueEmail("session"), password: "session passphrase" };
  await signUp(page, account);
  const copy = await copyOfSession(browser, page);
  const dialog = await openCreatePaymentDialog(copy);

  await logOut(page);

  // The action the copy had on screen does not run: it is sent to log in, and no payment exists.
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(copy).toHaveURL(/\/login/);
  await copy.goto("/dashboard/payments");
  await expect(copy).toHaveURL(/\/login\?next=%2Fdashboard%2Fpayments$/);
  await copy.context().close();

  await logInAs(page, account);
  await navLink(page, "Payments").click();
  await expect(page.getByText("No payments yet.", { exact: false })).toBeVisible();
});

test("Security lists each session and signs out all the others", async ({ browser, page }) => {
  const account = { name: "Two Laptops", email: uniqueEmail("laptops"), password: "session passphrase" };
  await signUp(page, account);
  const other = await (await browser.newContext()).newPage();
  await logInAs(other, account);

  await page.goto("/dashboard/settings/security");
  const sessions = page.getByRole("region", { name: "Your sessions" });
  await expect(sessions.getByRole("row")).toHaveCount(3);
  await expect(sessions.getByText("This session")).toHaveCount(1);
  // The browser as its User-Agent names it (Playwright's Desktop Chrome), never the raw header.
  await expect(sessions).toContainText(/Chrome on (Windows|Linux|macOS)/);
  await page.getByRole("button", { name: "Sign out of all other sessions" }).click();
  await expect(page.getByText("Signed out of 1 other session.")).toBeVisible();
  await expect(sessions.getByRole("row")).toHaveCount(2);
  await expect(page.getByText("You are signed in nowhere else.")).toBeVisible();

  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/login/);
  // This session goes on.
  await page.goto("/dashboard/payments");
  await expect(page.getByRole("heading", { name: "Payments", exact: true })).toBeVisible();
  await other.context().close();
});

test("a password change signs the other sessions out and keeps this one", async ({ browser, page }) => {
  const account = { name: "Password Co", email: uniqueEmail("pwchange"), password: "session passphrase" };
  await signUp(page, account);
  const copy = await copyOfSession(browser, page);
  const other = await (await browser.newContext()).newPage();
  await logInAs(other, account);

  await page.goto("/dashboard/settings/security");
  await page.getByLabel("Current password").fill(account.password);
  await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
  await page.getByLabel("Repeat new password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password is changed. Your other sessions are signed out.")).toBeVisible();

  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/login/);
  // A copy of this very cookie is this session, and goes on with it.
  await copy.goto("/dashboard");
  await expect(copy.getByRole("heading", { name: account.name })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: account.name })).toBeVisible();
  await other.context().close();
  await copy.context().close();
});
