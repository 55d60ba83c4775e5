import {
  confirmItsYou,
  createPaymentViaApi,
  expect,
  logInAs,
  navLink,
  signUp,
  test,
  uniqueEmail,
} from "./fixtures";
import { openSse } from "../tests/support/sse-client";

test("generate a token, see it once, copy it, use it, roll it and revoke it", async ({
  page,
  context,
  request,
  seed,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const name = `Backend ${Date.now()}`;
  const call = (token: string) =>
    request.get("/api/payments?perPage=1", { headers: { Authorization: `Bearer ${token}` } });

  await logInAs(page, seed);
  await navLink(page, "API keys").click();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();

  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, seed.password);
  await expect(page.getByText("The name field is required.")).toBeVisible();

  await page.getByLabel("Token name").fill(name);
  await page.getByLabel("Scope").selectOption("read");
  await page.getByLabel("Expires").selectOption("90");
  await page.getByRole("button", { name: "Generate token" }).click();
  await expect(page.getByText("You won't see it again.")).toBeVisible();
  const token = (await page.getByTestId("new-token").textContent())!;
  expect(token).toMatch(/^pay_test_[0-9A-Za-z]{49}$/);

  await page.getByRole("button", { name: "Copy token" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  expect((await call(token)).status()).toBe(200);
  expect(
    (
      await request.post("/api/payments", {
        headers: { Authorization: `Bearer ${token}` },
        data: { amount: 1 },
      })
    ).status(),
  ).toBe(403);

  await page.reload();
  await expect(page.getByText(token)).toHaveCount(0);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Read only");
  await expect(row).toContainText(`pay_test_…${token.slice(-4)}`);
  await expect(row).toContainText("active");
  // Times read relative ("just now"), with the exact time, UTC included, on hover.
  await expect(row.locator("time").first()).toHaveAttribute("title", /UTC/);

  await page.getByRole("button", { name: `Roll ${name}` }).click();
  const rollDialog = page.getByRole("dialog", { name: `Roll token “${name}”` });
  await rollDialog.getByLabel("Old token keeps working for").selectOption("now");
  await rollDialog.getByRole("button", { name: "Roll token" }).click();
  const rolled = (await rollDialog.getByTestId("new-token").textContent())!;
  expect(rolled).not.toBe(token);
  await rollDialog.getByRole("button", { name: "Done" }).click();
  expect((await call(token)).status()).toBe(401);
  expect((await call(rolled)).status()).toBe(200);

  // Rolled with no grace, the old key is revoked at once: only its replacement is listed.
  const rows = page.getByRole("row").filter({ hasText: name });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`pay_test_…${rolled.slice(-4)}`);
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  const revokeDialog = page.getByRole("dialog", { name: `Revoke token “${name}”?` });
  await revokeDialog.getByRole("button", { name: "Cancel" }).click();
  expect((await call(rolled)).status()).toBe(200);

  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await revokeDialog.getByRole("button", { name: "Revoke token" }).click();
  // Revoked keys leave the default list at once and stay listed, marked, for audit.
  await expect(rows).toHaveCount(0);
  expect((await call(rolled)).status()).toBe(401);
  await page.getByRole("link", { name: /Show revoked and expired/ }).click();
  await expect(rows.filter({ hasText: "revoked" })).toHaveCount(2);
});

test("revoking a key in the dashboard ends its open event stream, with none of the later events", async ({
  page,
  request,
  baseURL,
  seed,
  seedData,
}) => {
  const name = `Listener ${Date.now()}`;
  await logInAs(page, seed);
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill(name);
  await page.getByLabel("Scope").selectOption("read");
  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, seed.password);
  const token = (await page.getByTestId("new-token").textContent())!;
  const stream = await openSse(`${baseURL}/api/events/stream`, token);
  expect(stream.status).toBe(200);
  const idOf = (path: string) => path.split("/").at(-1)!;
  const before = idOf(await createPaymentViaApi(request, seedData.tokens.api, { amount: 1 }));
  await stream.waitFor((events) => events.some((event) => event.data.includes(`"id":${before}`)));

  await page.reload();
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await page
    .getByRole("dialog", { name: `Revoke token “${name}”?` })
    .getByRole("button", { name: "Revoke token" })
    .click();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  const after = [];
  for (let index = 0; index < 3; index++)
    after.push(idOf(await createPaymentViaApi(request, seedData.tokens.api, { amount: 1 })));
  const ended = await Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(resolve, 20_000, false)),
  ]);
  expect(ended).toBe(true);
  for (const id of after)
    expect(stream.events.some((event) => event.data.includes(`"id":${id}`))).toBe(false);
});

test("the Developers page shows the base URL and a curl example per endpoint", async ({ page, seed }) => {
  await logInAs(page, seed);
  await navLink(page, "Developers").click();
  await expect(page.getByRole("heading", { name: "Developers" })).toBeVisible();
  for (const label of ["List payments", "Create a payment", "Retrieve a payment"]) {
    await expect(page.getByRole("button", { name: `Copy ${label}` })).toBeVisible();
  }
  await expect(page.getByText("Too Many Attempts.")).toBeVisible();
  await expect(page.getByText(/curl -X POST "http:\/\/127\.0\.0\.1:\d+\/api\/payments"/)).toBeVisible();
});

test("a crafted token id in the revoke form is a field error, and revokes nothing", async ({
  page,
  seed,
}) => {
  test.setTimeout(240_000);
  const name = `Crafted ${Date.now()}`;
  await logInAs(page, seed);
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill(name);
  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, seed.password);
  await expect(page.getByText("You won't see it again.")).toBeVisible();
  await page.reload();

  const dialog = page.getByRole("dialog", { name: `Revoke token “${name}”?` });
  const revoke = page.getByRole("button", { name: `Revoke ${name}` });
  await expect(revoke).toBeVisible();
  for (const crafted of ["abc", "1 or 1=1", "", "1e3", "9".repeat(16)]) {
    // Each crafted id from a freshly loaded page: a click before the page is hydrated opens nothing, and
    // is tried again.
    await page.goto("/dashboard/api-keys");
    await expect(async () => {
      if (!(await dialog.isVisible())) await revoke.click({ timeout: 5_000 });
      await expect(dialog).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await dialog.locator('input[name="token_id"]').evaluate((input, value) => {
      (input as HTMLInputElement).value = value;
    }, crafted);
    await dialog.getByRole("button", { name: "Revoke token" }).click();
    await expect(dialog.getByText("The token id field must be an integer.")).toBeVisible({ timeout: 20_000 });
  }
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("active");
});

test("a revoked key leaves the active keys at once: nothing to roll or revoke behind its confirmation", async ({
  page,
  seed,
}) => {
  const name = `Revoked at once ${Date.now()}`;
  await logInAs(page, seed);
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill(name);
  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, seed.password);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("active");

  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await page
    .getByRole("dialog", { name: `Revoke token “${name}”?` })
    .getByRole("button", { name: "Revoke token" })
    .click();
  // No Close to click first: the revocation is confirmed by a toast, and the row has left the list.
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText(`Token “${name}” revoked.`);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(row).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Roll ${name}` })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  await page.getByRole("link", { name: /Show revoked and expired/ }).click();
  await expect(row).toContainText("revoked");
});

test("durations are rounded as people read them: a 30-day key ends in 30 days, a 24 h grace stops in 24 hr, a 7-day invitation expires in 7 days", async ({
  page,
}) => {
  await signUp(page, { name: "Round Co", email: uniqueEmail("round"), password: "a long passphrase" });
  const name = `Thirty days ${Date.now()}`;
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill(name);
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, "a long passphrase");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(4)).toHaveText("in 30 days");

  await page.getByRole("button", { name: `Roll ${name}` }).click();
  const rollDialog = page.getByRole("dialog", { name: `Roll token “${name}”` });
  await rollDialog.getByLabel("Old token keeps working for").selectOption("24h");
  await rollDialog.getByRole("button", { name: "Roll token" }).click();
  await rollDialog.getByRole("button", { name: "Done" }).click();
  await expect(row.filter({ hasText: "Replaced by" })).toContainText(/stops in 24 hr/);

  await page.goto("/dashboard/team");
  const invited = uniqueEmail("invited");
  await page.getByLabel("Email").fill(invited);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText(`${invited} · Developer · expires in 7 days`)).toBeVisible();
});
