import { lookInEveryView } from "./axe";
import { confirmItsYou, expect, mailsTo, joinTeam, logInAs, signUp, test, uniqueEmail } from "./fixtures";

// A stolen session (a copy of the cookie) against the actions that grant access (DESIGN.md, "API tokens";
// sudo mode): making a key, inviting an owner and changing a role each ask for the password again, so the
// copy changes nothing and the attempt is recorded; the owner, with the password, does each, and every owner
// is mailed what concerns the account's owners.

test("a copied session cookie makes no key, invites no owner and changes no role; with the password each works and the owners are mailed", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = { name: "Victim Co", email: uniqueEmail("victim"), password: "victim passphrase" };
  await signUp(page, owner);
  // A developer on the team, added from another sign-in of the owner's (that session's password stays there).
  const setup = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.240" } });
  const setupPage = await setup.newPage();
  await logInAs(setupPage, owner);
  const developer = await joinTeam(setupPage, browser, "developer", owner.password);
  await developer.context().close();
  await setup.close();

  // The thief, with a copy of the victim's cookie, from another address.
  const thief = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.77" } });
  await thief.addCookies(await page.context().cookies());
  const stolen = await thief.newPage();
  const asked = stolen.getByRole("dialog", { name: "Confirm it is you" });
  const refuse = async () => {
    await expect(asked).toBeVisible();
    await asked.getByRole("button", { name: "Cancel" }).click();
    await expect(asked).toHaveCount(0);
  };
  await stolen.goto("/dashboard/api-keys");
  await stolen.getByLabel("Token name").fill("thief key");
  await stolen.getByRole("button", { name: "Generate token" }).click();
  await refuse();
  await stolen.goto("/dashboard/team");
  await stolen.getByLabel("Email").fill(uniqueEmail("attacker"));
  await stolen.getByLabel("Role", { exact: true }).selectOption("owner");
  await stolen.getByRole("button", { name: "Invite" }).click();
  await refuse();
  const stolenRow = stolen.getByRole("row", { name: /Quinn developer/ });
  await stolenRow.locator('select[name="role"]').selectOption("owner");
  await stolenRow.getByRole("button", { name: "Change role" }).click();
  await refuse();
  await thief.close();

  // Nothing changed.
  await page.goto("/dashboard/api-keys");
  await expect(page.getByRole("row").filter({ hasText: "thief key" })).toHaveCount(0);
  await page.goto("/dashboard/team");
  await expect(page.getByText(/attacker-.*· Owner/)).toHaveCount(0);
  const row = page.getByRole("row", { name: /Quinn developer/ });
  await expect(row.getByRole("cell").nth(1)).toHaveText("Developer");

  // The owner, with the password: the dialog in every view, then each change works.
  await row.locator('select[name="role"]').selectOption("viewer");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByRole("dialog", { name: "Confirm it is you" })).toBeVisible();
  await lookInEveryView(page, "password-dialog");
  await confirmItsYou(page, owner.password);
  await expect(row.getByRole("cell").nth(1)).toHaveText("Viewer");
  const partner = uniqueEmail("partner");
  await page.getByLabel("Email").fill(partner);
  await page.getByLabel("Role", { exact: true }).selectOption("owner");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText(`${partner} · Owner`)).toBeVisible();
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill("treasury");
  await page.getByLabel("Scope").selectOption("write,payout_account");
  await page.getByRole("button", { name: "Generate token" }).click();
  await expect(page.getByText("You won't see it again.")).toBeVisible();

  // Every owner is told: the owner invited, and the key that can change the payout account.
  await expect(() => {
    const mails = mailsTo(owner.email);
    expect(mails.some((mail) => mail.includes(`${partner} was invited as an owner by ${owner.email}`))).toBe(
      true,
    );
    expect(
      mails.some((mail) => mail.includes("Subject: An API key that can change your payout account was made")),
    ).toBe(true);
  }).toPass({ timeout: 20_000 });

  // The history: the thief's three attempts asked for the password (and the owner's first, in each session).
  await page.goto("/dashboard/settings/security-history");
  const history = page.getByRole("table", { name: "Security history" });
  const attempts = history.getByRole("row").filter({ hasText: "Password asked again" });
  await expect(attempts).toHaveCount(5);
  await expect(attempts.filter({ hasText: "198.51.100.77" })).toHaveCount(3);

  // A new password does not stop a key made with the old one: the change offers the keys made in the last day.
  await page.goto("/dashboard/settings/security");
  await page.getByLabel("Current password").fill(owner.password);
  await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
  await page.getByLabel("Repeat new password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  const recent = page.getByTestId("recent-keys");
  await expect(recent).toContainText(`treasury (pay_test_…`);
  await expect(recent).toContainText(`made by ${owner.email}`);
  await recent.getByRole("button", { name: "Revoke these keys" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke keys" }).click();
  await expect(page.getByTestId("recent-keys")).toHaveCount(0);
  await page.goto("/dashboard/api-keys");
  await expect(page.getByRole("row").filter({ hasText: "treasury" })).toHaveCount(0);
});
