import { expect, openAccountMenu, signUp, test, uniqueEmail, confirmItsYou } from "./fixtures";

test("invite a viewer: the link works once, the viewer sees no secret and cannot act; roles change, removal ends the session", async ({
  page,
  browser,
}) => {
  const owner = { name: "Team Co", email: uniqueEmail("owner"), password: "a long passphrase" };
  await signUp(page, owner);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`https://example.com/team-${Date.now()}`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const endpointPath = new URL(page.url()).pathname;
  await expect(page.getByRole("button", { name: "Reveal secret" })).toBeVisible();

  // Invite a viewer; the link is shown once.
  await page.goto("/dashboard/team");
  const viewerEmail = uniqueEmail("viewer");
  await page.getByLabel("Email").fill(viewerEmail);
  await page.getByLabel("Role").selectOption("viewer");
  await page.getByRole("button", { name: "Invite" }).click();
  await confirmItsYou(page, owner.password);
  const link = (await page.getByTestId("invitation-link").textContent())!;
  expect(link).toMatch(/\/invite\/inv_[\w-]+$/);
  await expect(page.getByText(`${viewerEmail} · Viewer`)).toBeVisible();

  // The viewer, in a browser of their own, accepts it.
  const viewerContext = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.250" },
  });
  const viewer = await viewerContext.newPage();
  await viewer.goto(new URL(link).pathname);
  await expect(viewer.getByRole("heading", { name: "Join Team Co" })).toBeVisible();
  await viewer.getByLabel("Your name").fill("Quinn Viewer");
  await viewer.getByLabel("Password").fill("viewer passphrase");
  await viewer.getByRole("button", { name: "Join the team" }).click();
  await expect(viewer).toHaveURL(/\/dashboard$/);

  // Read-only, and no secret anywhere.
  await viewer.goto(endpointPath);
  await expect(viewer.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Reveal secret" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Send test event" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /Disable endpoint|Delete endpoint/ })).toHaveCount(0);
  await viewer.goto("/dashboard/api-keys");
  await expect(viewer.getByRole("button", { name: "Generate token" })).toHaveCount(0);
  await viewer.goto("/dashboard/payments");
  await expect(viewer.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Create test payment" })).toHaveCount(0);
  await viewer.goto("/dashboard/team");
  await expect(viewer.getByRole("button", { name: "Invite" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Leave team" })).toBeVisible();

  // The link worked once.
  const again = await viewerContext.newPage();
  await again.goto(new URL(link).pathname);
  await expect(again.getByRole("heading", { name: "This invitation is no longer valid" })).toBeVisible();

  // The owner sees the member with a sign-in, makes them a developer: the dashboard follows at once.
  await page.goto("/dashboard/team");
  const row = page.getByRole("row", { name: /Quinn Viewer/ });
  await expect(row).toContainText("Viewer");
  // The phone layout's card repeats the control (hidden at this width): pick the row's.
  await row.locator('select[name="role"]').selectOption("developer");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(row.getByRole("cell").nth(1)).toHaveText("Developer");
  await viewer.goto("/dashboard/payments");
  await expect(viewer.getByRole("button", { name: "Create test payment" })).toBeVisible();

  // Removed: the open session ends on its next request.
  await page
    .getByRole("row", { name: /Quinn Viewer/ })
    .getByRole("button", { name: "Remove" })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("row", { name: /Quinn Viewer/ })).toHaveCount(0);
  // The export, a route handler, checks the member too (the cookie alone is not enough).
  expect((await viewer.request.get("/dashboard/payments/export")).status()).toBe(401);
  await viewer.goto("/dashboard");
  await expect(viewer).toHaveURL(/\/login/);
  await viewerContext.close();
});

test("the only owner is not offered Leave team and is told why; with a second owner it is offered", async ({
  page,
  browser,
}) => {
  const owner = { name: "Sole Owner Co", email: uniqueEmail("sole"), password: "a long passphrase" };
  await signUp(page, owner);
  await page.goto("/dashboard/team");
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByText("You are the only owner: make someone else an owner first.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Leave team" })).toHaveCount(0);

  // A second owner joins: now either of them may leave.
  await page.getByLabel("Email").fill(uniqueEmail("second-owner"));
  await page.getByLabel("Role").selectOption("owner");
  await page.getByRole("button", { name: "Invite" }).click();
  await confirmItsYou(page, owner.password);
  const link = (await page.getByTestId("invitation-link").textContent())!;
  const secondContext = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.249" },
  });
  const second = await secondContext.newPage();
  await second.goto(new URL(link).pathname);
  await second.getByLabel("Your name").fill("Sam Second");
  await second.getByLabel("Password").fill("second passphrase");
  await second.getByRole("button", { name: "Join the team" }).click();
  await expect(second).toHaveURL(/\/dashboard$/);
  await secondContext.close();
  await page.reload();
  await expect(page.getByRole("button", { name: "Leave team" })).toBeVisible();
  await expect(page.getByText("You are the only owner")).toHaveCount(0);
});

test("sign-up asks for your name, optional: Team and the account menu show it, or the email, never the business name", async ({
  browser,
}) => {
  for (const [yourName, address] of [
    ["Ada Lovelace", "203.0.113.247"],
    [undefined, "203.0.113.248"],
  ] as const) {
    const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": address } });
    const page = await context.newPage();
    const account = {
      name: `Analytical Engines ${Date.now()}`,
      email: uniqueEmail("named"),
      password: "a long passphrase",
      yourName,
    };
    await signUp(page, account);
    await page.goto("/dashboard/team");
    const members = page.getByRole("table", { name: "Members" });
    await expect(members.getByRole("row").nth(1).locator("td").first()).toHaveText(
      yourName ? `${yourName}${account.email}` : account.email,
    );
    await expect(members).not.toContainText(account.name);
    await openAccountMenu(page);
    const menu = page
      .locator("header")
      .getByRole("button", { name: /Account menu/ })
      .locator("..");
    await expect(menu).toContainText(yourName ?? account.email);
    await expect(menu).not.toContainText(account.name);
    await context.close();
  }
});
