import { lookInEveryView } from "./axe";
import { confirmItsYou, expect, signUp, test, uniqueEmail } from "./fixtures";

// Settings → Sandboxes (DESIGN.md, "Live and sandboxes"), as an owner: a sandbox made with its own test key,
// renamed and deleted with its data; an account key made with the password re-entered, which then makes a
// sandbox through the API. The page in light, dark and on a phone, axe finding nothing.

test("an owner makes, renames and deletes a sandbox, and makes an account key that makes sandboxes", async ({
  page,
}) => {
  const owner = { name: "Sandbox Co", email: uniqueEmail("sandboxes"), password: "sandbox passphrase" };
  await signUp(page, owner);
  await page.goto("/dashboard/settings");
  await page.getByRole("link", { name: "Sandboxes", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sandboxes", level: 1 })).toBeVisible();
  const table = page.getByRole("region", { name: "Sandboxes", exact: true });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toContainText("Test");

  // The first sandbox gets an endpoint; "QA" copies it (with a secret of its own) and the settings.
  await page.goto("/dashboard/webhooks");
  const hookUrl = "https://hooks.example.test/orders";
  await page.getByLabel("Endpoint URL").fill(hookUrl);
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page.getByText(hookUrl).first()).toBeVisible();
  await page.goto("/dashboard/settings/sandboxes");

  const newSandbox = page.getByRole("region", { name: "New sandbox", exact: true });
  await newSandbox.getByLabel("Name of the sandbox").fill("QA");
  await newSandbox.getByLabel("Copy settings from").selectOption({ label: "Sandbox: Test" });
  await newSandbox.getByRole("button", { name: "Make sandbox" }).click();
  const sandboxKey = (await newSandbox.getByTestId("new-token").textContent())!;
  expect(sandboxKey).toMatch(/^pay_test_[0-9A-Za-z]{49}$/);
  const copied = await page.request.get("/api/webhook-endpoints", {
    headers: { Authorization: `Bearer ${sandboxKey}` },
  });
  const { data: copiedEndpoints } = (await copied.json()) as { data: unknown[] };
  expect(copiedEndpoints).toMatchObject([{ url: hookUrl, kind: "url" }]);
  const created = await page.request.post("/api/payments", {
    headers: { Authorization: `Bearer ${sandboxKey}` },
    data: { amount: "4.20", currency: "EUR" },
  });
  expect(created.status()).toBe(201);

  // A taken name is refused, and nothing is made.
  await newSandbox.getByLabel("Name of the sandbox").fill("Test");
  await newSandbox.getByRole("button", { name: "Make sandbox" }).click();
  await expect(newSandbox.getByText("The name has already been taken.")).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(3);

  const rename = page.getByRole("region", { name: "Rename a sandbox", exact: true });
  await rename.getByLabel("Sandbox").selectOption({ label: "QA" });
  await rename.getByLabel("New name").fill("QA nightly");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(table.getByRole("row", { name: /QA nightly/ })).toBeVisible();

  const accountKeys = page.getByRole("region", { name: "Account keys", exact: true });
  await accountKeys.getByLabel("Name of the account key").fill("CI");
  await accountKeys.getByRole("button", { name: "Make account key" }).click();
  // Asked for the password; once given, the form is sent again.
  await confirmItsYou(page, owner.password);
  const accountKey = (await accountKeys.getByTestId("new-token").textContent())!;
  expect(accountKey).toMatch(/^pay_acct_[0-9A-Za-z]{49}$/);
  const made = await page.request.post("/api/sandboxes", {
    headers: { Authorization: `Bearer ${accountKey}` },
    data: { name: "ci-1" },
  });
  expect(made.status()).toBe(201);
  await page.reload();
  await expect(table.getByRole("row")).toHaveCount(4);
  await lookInEveryView(page, "settings-sandboxes");

  const renamed = table.getByRole("row", { name: /QA nightly/ });
  await renamed.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete sandbox and its data" }).click();
  await expect(table.getByRole("row", { name: /QA nightly/ })).toHaveCount(0);
  const gone = await page.request.get("/api/payments", {
    headers: { Authorization: `Bearer ${sandboxKey}` },
  });
  expect(gone.status()).toBe(401);
  // The first sandbox has no Delete.
  await expect(table.getByRole("row").nth(1).getByRole("button", { name: "Delete" })).toHaveCount(0);
});

test("an owner makes a sandbox on a test clock and advances it: what falls due happens at the clock's time", async ({
  page,
}) => {
  const owner = { name: "Clock Co", email: uniqueEmail("clock"), password: "clock passphrase" };
  await signUp(page, owner);
  await page.goto("/dashboard/settings/sandboxes");
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  const newSandbox = page.getByRole("region", { name: "New sandbox", exact: true });
  // A clock in the future is refused on its field, and nothing is made.
  await newSandbox.getByLabel("Name of the sandbox").fill("Month end");
  await newSandbox
    .getByLabel("Test clock start (optional)")
    .fill(new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10));
  await newSandbox.getByRole("button", { name: "Make sandbox" }).click();
  await expect(newSandbox.getByText("The clock must not be in the future.")).toBeVisible();
  const table = page.getByRole("region", { name: "Sandboxes", exact: true });
  await expect(table.getByRole("row")).toHaveCount(2);

  await newSandbox.getByLabel("Test clock start (optional)").fill(start.toISOString().slice(0, 10));
  await newSandbox.getByRole("button", { name: "Make sandbox" }).click();
  const key = (await newSandbox.getByTestId("new-token").textContent())!;
  await expect(table.getByRole("row", { name: /Month end/ })).toContainText("test clock");
  const api = { Authorization: `Bearer ${key}` };
  const created = await page.request.post("/api/payments", { headers: api, data: { amount: "7.00" } });
  expect(created.status()).toBe(201);
  const location = created.headers().location!;
  expect(await (await page.request.get(location, { headers: api })).json()).toMatchObject({
    data: { status: "pending", created_at: start.toISOString() },
  });

  // A day on: the payment, still pending, expires at its 24 hours (this server settles nothing by itself).
  const advance = page.getByRole("region", { name: "Advance a test clock", exact: true });
  await advance.getByLabel("Sandbox").selectOption({ label: "Month end" });
  await advance.getByLabel("By").selectOption({ label: "1 day" });
  await advance.getByRole("button", { name: "Advance" }).click();
  const dayOn = new Date(start.getTime() + 86_400_000).toISOString();
  await expect(page.getByText(`The clock now reads ${dayOn}.`)).toBeVisible();
  expect(await (await page.request.get(location, { headers: api })).json()).toMatchObject({
    data: { status: "failed", failure_code: "expired" },
  });
  expect(await (await page.request.get("/api/test-helpers/clock", { headers: api })).json()).toEqual({
    data: { sandbox_id: expect.any(Number), now: dayOn, test_clock: true },
  });
  await lookInEveryView(page, "settings-sandboxes-clock");
});
