import { expect, logIn, logOut, signUp, test, uniqueEmail } from "./fixtures";

test("sign up, land on the dashboard, log out and log back in", async ({ page }) => {
  const account = { name: `Acme ${Date.now()}`, email: uniqueEmail("signup"), password: "a long passphrase" };
  await signUp(page, account);
  await expect(page.getByRole("heading", { name: account.name })).toBeVisible();
  await logOut(page);
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: account.name })).toBeVisible();
});

test("a wrong password shows an error and stays on the login page", async ({ page, seed }) => {
  await logIn(page, seed.email, "definitely wrong");
  await expect(
    page.getByRole("alert").filter({ hasText: "These credentials do not match our records." }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Email")).toHaveValue(seed.email);
});

test("sign-up form errors are shown next to their fields, and nothing is created", async ({ page }) => {
  const email = uniqueEmail("invalid");
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter your business name.")).toBeVisible();
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await logIn(page, email, "short");
  await expect(
    page.getByRole("alert").filter({ hasText: "These credentials do not match our records." }),
  ).toBeVisible();
});

test("an email can only sign up once", async ({ page, seed }) => {
  await page.goto("/signup");
  await page.getByLabel("Business name").fill("Copycat");
  await page.getByLabel("Email").fill(seed.email);
  await page.getByLabel("Password").fill("a long passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("The email has already been taken.")).toBeVisible();
});

test("a logged-out visit to a dashboard page goes to the login page", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await expect(page.getByRole("heading", { name: "Log in to your account" })).toBeVisible();
});

test("a second merchant sees none of the first one's data", async ({ browser, seed }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const other = { name: `Other ${Date.now()}`, email: uniqueEmail("other"), password: "another passphrase" };
  await signUp(page, other);
  await expect(page.getByRole("heading", { name: other.name })).toBeVisible();
  await expect(page.getByText(seed.name)).toHaveCount(0);
  await expect(page.getByText(seed.email)).toHaveCount(0);
  await context.close();
});
