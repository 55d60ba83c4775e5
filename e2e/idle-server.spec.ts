import { expect, logInAs, logOut, navLink, test } from "./fixtures";
import { IDLE_MS } from "../lib/platform/async-context";

// Playwright runs one worker, so nothing reaches the server while this test waits: the server turns off
// the stores Next.js entered (lib/platform/async-context.ts), and the next requests must enter them again.
test("after the server turned Next.js's stores off while idle, pages, server actions and sign-in still work", async ({
  page,
  seed,
}) => {
  // Half a minute of waiting, and nothing in it depends on the database: once, on the embedded one.
  test.skip(Boolean(process.env.DATABASE_URL), "runs on the embedded database only");
  test.setTimeout(IDLE_MS + 60_000);
  await logInAs(page, seed);
  await page.waitForTimeout(IDLE_MS + 2_000);

  // A page that reads the session, then a server action.
  await navLink(page, "Payments").click();
  await expect(page.getByRole("heading", { name: "Payments", exact: true })).toBeVisible();
  const externalId = `idle_${Date.now()}`;
  await page.getByRole("button", { name: "Create test payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a test payment" });
  await dialog.getByLabel("Amount").fill("7.25");
  await dialog.getByLabel("External ID").fill(externalId);
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(dialog.getByText(/Payment \d+ created\./)).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("row").filter({ hasText: externalId })).toContainText("7.25");

  // next-auth's routes: out, then in again.
  await logOut(page);
  await logInAs(page, seed);
});
