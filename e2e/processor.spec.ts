// Settings → Processor (DESIGN.md, "Processors"): an owner connects live to Mollie (its stand-in, started by
// e2e/global-setup.ts) with the password entered again; a key Mollie refuses is refused with its reason and
// nothing is saved; a live payment then goes to Mollie, and its page names it, linked to Mollie's dashboard; once
// paid on Mollie's page, the dashboard's refund of it goes to Mollie.
import { lookInEveryView } from "./axe";
import { confirmItsYou, expect, signUp, test, uniqueEmail } from "./fixtures";

test("an owner connects live to Mollie with the password; a refused key says why; live payments go to Mollie", async ({
  page,
  request,
  browser,
}) => {
  const owner = { name: "Mollie Co", email: uniqueEmail("mollie"), password: "mollie passphrase" };
  const key = process.env.E2E_MOLLIE_LIVE_KEY!;
  await signUp(page, owner);
  await page.goto("/live/dashboard/settings/processor");
  await expect(page.getByRole("heading", { name: "Not connected" })).toBeVisible();
  await lookInEveryView(page, "settings-processor");

  // A key of the right shape that Mollie does not know: Mollie's reason, on the field; nothing saved.
  await page.getByLabel("Processor").selectOption("mollie");
  await page.getByLabel("API key").fill(`live_${"Unknown".repeat(4)}00`);
  await page.getByRole("button", { name: "Connect" }).click();
  await confirmItsYou(page, owner.password);
  await expect(page.getByText(/Mollie: .*authenticate/)).toBeVisible();
  await expect(page.getByLabel("API key")).toHaveValue("");
  // A test key is refused in live before Mollie is asked.
  await page.getByLabel("API key").fill(`test_${"a".repeat(30)}`);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(
    page.getByText("Live takes a live Mollie key; connect a test key in a sandbox."),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Not connected" })).toBeVisible();

  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByTestId("processor-connection")).toContainText(`live key ending ${key.slice(-4)}`);
  await expect(page.getByRole("heading", { name: "Mollie" })).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);
  await lookInEveryView(page, "settings-processor-connected");

  // Live has no test payments: its payments come from the API.
  await page.goto("/live/dashboard/payments");
  await expect(page.getByRole("heading", { name: "Payments" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create test payment" })).toHaveCount(0);

  // A live key of its own, then a payment through the API: made at Mollie.
  await page.goto("/live/dashboard/api-keys");
  await page.getByLabel("Token name").fill("backend");
  await page.getByRole("button", { name: "Generate token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!;
  const created = await request.post("/api/payments", {
    headers: { Authorization: `Bearer ${token}`, Prefer: "return=representation" },
    data: { amount: "25.00", currency: "EUR" },
  });
  expect(created.status()).toBe(201);
  const payment = (
    (await created.json()) as { data: { id: number; processor_payment_id: string; checkout_url: string } }
  ).data;
  await page.goto(`/live/dashboard/payments/${payment.id}`);
  const link = page.getByTestId("processor-payment-id");
  await expect(link).toHaveText(payment.processor_payment_id);
  await expect(link).toHaveAttribute(
    "href",
    `https://my.mollie.com/dashboard/payments/${payment.processor_payment_id}`,
  );
  await expect(page.getByRole("button", { name: "Mark as paid" })).toHaveCount(0);
  await lookInEveryView(page, "payment-at-mollie");

  // The payer pays on Mollie's page (the stand-in's, under the tests' own authority), and comes back here.
  const payer = await browser.newContext({ ignoreHTTPSErrors: true });
  const checkout = await payer.newPage();
  await checkout.goto(payment.checkout_url);
  await checkout.getByRole("button", { name: "Paid", exact: true }).click();
  await expect(checkout).toHaveURL(/\/pay\//);
  await payer.close();
  // Mollie's webhook completed it; a refund from the dashboard goes to Mollie, and waits for Mollie's word.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("payment-status")).toContainText("completed");
  }).toPass({ timeout: 30_000 });
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByRole("dialog").getByLabel("Amount").fill("10.00");
  await page.getByRole("dialog").getByRole("button", { name: "Refund", exact: true }).click();
  const refunds = page.getByRole("region", { name: "Refunds" });
  await expect(refunds.getByText("Pending").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark refund succeeded" })).toHaveCount(0);
  await lookInEveryView(page, "payment-at-mollie-refunded");
});
