import { readFileSync } from "node:fs";
import { lookInEveryView } from "./axe";
import {
  confirmItsYou,
  expect,
  mailsTo,
  logInAs,
  saveBankAccount,
  signUp,
  test,
  uniqueEmail,
} from "./fixtures";

// The payout account a stolen session cannot redirect, and the security history that shows who changed it
// (DESIGN.md, "Security history, and a payout account a stolen session cannot redirect"). A merchant of its own.

test("the bank account takes the password: a stolen session or a wrong password changes nothing, the right one replaces it, mails the owner and shows in the security history", async ({
  page,
  browser,
}) => {
  const owner = { name: "Guarded", email: uniqueEmail("guarded"), password: "guarded passphrase" };
  await signUp(page, owner);

  // A copy of the session cookie, without the password: asked for it, and nothing changes.
  const thief = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.66" } });
  await thief.addCookies(await page.context().cookies());
  const stolen = await thief.newPage();
  await stolen.goto("/dashboard/settings/payouts");
  const theirs = stolen.getByRole("region", { name: "Bank account" });
  await theirs.getByLabel("Account holder").fill("Thief Ltd");
  await theirs.getByLabel("IBAN").fill("GB82 WEST 1234 5698 7654 32");
  await theirs.getByRole("button", { name: "Save account" }).click();
  const theirDialog = stolen.getByRole("dialog", { name: "Confirm it is you" });
  await theirDialog.getByRole("button", { name: "Confirm" }).click();
  await expect(theirDialog.getByText("Enter your password.")).toBeVisible();
  await theirDialog.getByLabel("Password").fill("a guess");
  await theirDialog.getByRole("button", { name: "Confirm" }).click();
  await expect(theirDialog.getByText("The password is not correct.")).toBeVisible();
  await thief.close();

  // The owner: a wrong password first (the dialog says so and stays), then the right one saves.
  await page.goto("/dashboard/settings/payouts");
  const account = page.getByRole("region", { name: "Bank account" });
  await expect(page.getByTestId("payout-account")).toContainText("No bank account yet");
  await account.getByLabel("Account holder").fill("Guarded GmbH");
  await account.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
  await account.getByRole("button", { name: "Save account" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await dialog.getByLabel("Password").fill("not my password");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByText("The password is not correct.")).toBeVisible();
  await lookInEveryView(page, "payout-account-password");
  await confirmItsYou(page, owner.password);
  await expect(page.getByText("Payouts now go to the account ending 3000.")).toBeVisible();
  expect(mailsTo(owner.email)).toEqual([]);

  // Replaced within the 10 minutes: not asked again; the owner is mailed who did it and from where. (Filled once
  // the page shows the saved account: its refresh empties the IBAN field.)
  await expect(page.getByTestId("payout-account")).toContainText("IBAN ending 3000");
  await expect(account.getByRole("button", { name: "Replace account" })).toBeVisible();
  await account.getByLabel("IBAN").fill("GB82 WEST 1234 5698 7654 32");
  await saveBankAccount(page, owner.password, "Replace account", false);
  await expect(page.getByText("Payouts now go to the account ending 5432.")).toBeVisible();
  // Mailed before the action answered, so it is there once the page says so.
  const [mail, ...more] = mailsTo(owner.email);
  expect(more).toEqual([]);
  expect(mail).toContain("Subject: Your payout account was changed");
  expect(mail).toContain(
    `The payout account was changed to IBAN ending 5432, held by Guarded GmbH, by ${owner.email}, from `,
  );
  // The security history: the change, by whom, and the refused attempts are not in it.
  await page.goto("/dashboard/settings");
  await page.getByRole("link", { name: "Security history" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Security history");
  const history = page.getByRole("table", { name: "Security history" });
  const changes = history.getByRole("row").filter({ hasText: "Payout account changed" });
  await expect(changes).toHaveCount(2);
  await expect(changes.first()).toContainText(owner.email);
  await expect(changes.first()).toContainText("IBAN ending 3000 → IBAN ending 5432");
  await expect(history.getByRole("row").filter({ hasText: "Signed in" })).toHaveCount(1);
  // The stolen session's attempt is recorded: asked for the password, and the wrong ones.
  await expect(history.getByRole("row").filter({ hasText: "Password asked again" })).toHaveCount(2);
  await expect(history.getByRole("row").filter({ hasText: "Password re-entered wrongly" })).toHaveCount(2);
  await page.getByLabel("Action").selectOption("payout_account.changed");
  await expect(page).toHaveURL(/action=payout_account\.changed/);
  await expect(history.getByRole("row")).toHaveCount(3);
  await lookInEveryView(page, "security-history");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8")
    .trimEnd()
    .split("\n");
  expect(csv[0]).toBe("id,created_at,action,actor,ip,user_agent,target");
  expect(csv).toHaveLength(3);
  expect(
    csv.every((line, index) => index === 0 || line.includes(`,payout_account.changed,${owner.email},`)),
  ).toBe(true);
});

test("a payout account replaced lately: Payouts says payouts wait, and until when, in every view", async ({
  page,
  seedData,
}) => {
  await logInAs(page, seedData.held);
  await page.goto("/dashboard/payouts");
  const hold = page.getByTestId("payout-hold");
  await expect(hold).toContainText("Payouts to the new account start at");
  // In the reader's time zone, as a person reads a time: never an ISO timestamp.
  await expect(hold.locator("time")).not.toHaveText(/\d{4}-\d{2}-\d{2}T/);
  await expect(page.getByRole("button", { name: "Pay out" })).toHaveCount(0);
  await lookInEveryView(page, "payouts-hold");
});
