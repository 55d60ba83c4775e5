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

  const newSandbox = page.getByRole("region", { name: "New sandbox", exact: true });
  await newSandbox.getByLabel("Name of the sandbox").fill("QA");
  await newSandbox.getByRole("button", { name: "Make sandbox" }).click();
  const sandboxKey = (await newSandbox.getByTestId("new-token").textContent())!;
  expect(sandboxKey).toMatch(/^pay_test_[0-9A-Za-z]{49}$/);
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
