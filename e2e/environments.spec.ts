import { lookInEveryView } from "./axe";
import { createPaymentViaApi, expect, signUp, test, uniqueEmail } from "./fixtures";

// Live and sandboxes in the dashboard (DESIGN.md, "Live and sandboxes"): the switcher on every page, the sandbox
// banner, URLs that name the environment (a copied link opens where it was made), and each environment's data
// apart. The page in a sandbox in light, dark and on a phone, axe finding nothing.

test("an owner switches between live and sandboxes; each shows only its own data, under a URL naming it", async ({
  page,
  browser,
}) => {
  const owner = { name: "Switch Co", email: uniqueEmail("switch"), password: "switch passphrase" };
  await signUp(page, owner);
  // A new account opens in its first sandbox, and says so; its links name it.
  const banner = page.getByRole("region", { name: "Sandbox notice" });
  await expect(banner).toHaveText("Test data: Test");
  const switcher = page.getByRole("combobox", { name: "Environment" });
  await expect(switcher.getByRole("option")).toHaveText(["Live", "Sandbox: Test"]);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(/\/sandbox\/\d+\/dashboard$/);

  // A second sandbox, and a payment in it made with its key.
  // A typed address without an environment opens where the user is.
  await page.goto("/dashboard/settings/sandboxes");
  await expect(banner).toHaveText("Test data: Test");
  const newSandbox = page.getByRole("region", { name: "New sandbox", exact: true });
  await newSandbox.getByLabel("Name of the sandbox").fill("QA");
  await newSandbox.getByRole("button", { name: "Make sandbox" }).click();
  const qaKey = (await newSandbox.getByTestId("new-token").textContent())!;
  const externalId = `only-in-qa-${Date.now()}`;
  const listed = page.getByRole("table").getByText(externalId);
  const paymentPath = await createPaymentViaApi(page.request, qaKey, {
    amount: "12.34",
    currency: "EUR",
    external_id: externalId,
  });

  // Switching keeps the section and names the environment in the URL.
  await page.goto("/dashboard/payments");
  await expect(page.getByRole("link", { name: externalId })).toHaveCount(0);
  await page.reload();
  await switcher.selectOption({ label: "Sandbox: QA" });
  await expect(page).toHaveURL(/\/sandbox\/\d+\/dashboard\/payments$/);
  await expect(banner).toHaveText("Test data: QA");
  await expect(listed).toBeVisible();
  // The main navigation stays in it.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Balance" }).click();
  await expect(page).toHaveURL(/\/sandbox\/\d+\/dashboard\/balance$/);
  await lookInEveryView(page, "environment-sandbox-balance");
  // A payment's link, followed from a page in QA, opens in QA and says so in its address.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payments" }).click();
  await listed.click();
  await expect(page).toHaveURL(/\/sandbox\/\d+\/dashboard\/payments\/\d+$/);
  const qaPaymentUrl = page.url();
  expect(new URL(qaPaymentUrl).pathname.endsWith(paymentPath)).toBe(true);

  await switcher.selectOption({ label: "Live" });
  await expect(page).toHaveURL(/\/live\/dashboard\/payments$/);
  await expect(banner).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  await expect(listed).toHaveCount(0);
  await lookInEveryView(page, "environment-live-payments");

  // Each environment's CSV holds its own payments only.
  const qaPrefix = new URL(qaPaymentUrl).pathname.replace(/\/dashboard\/.*$/, "");
  const csvOf = async (prefix: string) => {
    const response = await page.request.get(`${prefix}/dashboard/payments/export`);
    expect(response.status()).toBe(200);
    return response.text();
  };
  expect(await csvOf(qaPrefix)).toContain(externalId);
  expect(await csvOf("/live")).not.toContain(externalId);

  // The copied QA link opens in QA, though the user was last in live, in another tab too.
  const otherTab = await page.context().newPage();
  await otherTab.goto(qaPaymentUrl);
  await expect(otherTab.getByRole("region", { name: "Sandbox notice" })).toHaveText("Test data: QA");
  await expect(otherTab.getByText("12.34").first()).toBeVisible();
  await otherTab.close();

  // Another account's environment is not found, and nothing of it shows.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await signUp(strangerPage, {
    name: "Stranger Co",
    email: uniqueEmail("stranger"),
    password: "stranger phrase",
  });
  const response = await strangerPage.goto(qaPaymentUrl);
  expect(response?.status()).toBe(404);
  await expect(strangerPage.getByText(externalId)).toHaveCount(0);
  await stranger.close();
});
