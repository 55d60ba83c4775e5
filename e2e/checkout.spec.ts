import http from "node:http";
import { allViolations, showIn, VIEWS } from "./axe";
import { expect, fillCard, logInAs, newPayment, test } from "./fixtures";
import { CARDS } from "../tests/support/checkout-client";
import { findFreePort } from "../tests/support/free-port";
import { WebhookReceiver } from "../tests/support/webhook-receiver";

// The payer's side in Chromium (DESIGN.md, "Checkout"): each test card from the API's payment to the signed
// webhook (verified with standardwebhooks by the receiver), the authentication step both ways, a second tab,
// a payment link paid twice, and the pages under axe in light, dark and on a phone.

const receiver = new WebhookReceiver();
// Ports of its own (findFreePort leaves the next one free too): another worker's spec may listen at once.
const receiverPort = findFreePort();
const hookPath = `/checkout-${Date.now()}`;
/** The merchant's own site, where return_url sends the payer. */
const shopPort = receiverPort + 1;
const shop = http.createServer((request, response) => {
  const url = new URL(request.url ?? "/", `http://127.0.0.1:${shopPort}`);
  response.writeHead(200, { "Content-Type": "text/html" });
  response.end(
    `<!doctype html><html lang="en"><title>Shop</title><h1>Order ${url.searchParams.get("order")}: payment ${url.searchParams.get("status")}</h1></html>`,
  );
});

test.beforeAll(async ({ request, workerSandbox }) => {
  await receiver.listen(receiverPort);
  await new Promise<void>((resolve) => shop.listen(shopPort, "127.0.0.1", resolve));
  // The worker's sandbox, where this file's payments are made (seedData.tokens.api).
  const endpoint = await request.post("/api/webhook-endpoints", {
    headers: { Authorization: `Bearer ${workerSandbox.token}` },
    data: {
      url: `http://127.0.0.1:${receiverPort}${hookPath}`,
      event_types: ["payment.pending", "payment.completed", "payment.failed"],
    },
  });
  expect(endpoint.status()).toBe(201);
  receiver.expectSecret(hookPath, ((await endpoint.json()) as { data: { secret: string } }).data.secret);
});
test.afterAll(async () => {
  await receiver.close();
  await new Promise((resolve) => shop.close(resolve));
});

/** The payment's webhook after pending, signed and verified. */
async function finalWebhook(id: number) {
  const hooks = await receiver.waitFor(hookPath, (received) =>
    received.some((hook) => hook.payload.data.id === id && hook.payload.event !== "payment.pending"),
  );
  const hook = hooks.find((each) => each.payload.data.id === id && each.payload.event !== "payment.pending")!;
  expect(hook.verified).toBe(true);
  return hook.payload as {
    event: string;
    data: { status: string; payment_method: { last4: string } | null; failure_code?: string | null };
  };
}

test("4242 pays it: the payer lands on return_url with payment_id and status completed; payment.completed arrives signed", async ({
  page,
  seedData,
}) => {
  const { id, checkoutUrl } = await newPayment(page, seedData.tokens.api, {
    external_id: "order_4242",
    return_url: `http://127.0.0.1:${shopPort}/return?order=4242`,
  });
  await page.goto(checkoutUrl);
  await expect(page.getByText(seedData.seed.name)).toBeVisible();
  await expect(page.getByRole("heading", { name: "12.50" })).toBeVisible();
  await expect(page.getByText("order_4242")).toBeVisible();
  for (const [label, autocomplete] of [
    ["Card number", "cc-number"],
    ["Expiration", "cc-exp"],
    ["CVC", "cc-csc"],
    ["Name on card", "cc-name"],
  ] as const)
    await expect(page.getByLabel(label)).toHaveAttribute("autocomplete", autocomplete);
  await fillCard(page, CARDS.success);
  await page.getByRole("button", { name: "Pay $12.50" }).click();
  await expect(page).toHaveURL(
    `http://127.0.0.1:${shopPort}/return?order=4242&payment_id=${id}&status=completed`,
  );
  await expect(page.getByRole("heading", { name: "Order 4242: payment completed" })).toBeVisible();
  const hook = await finalWebhook(id);
  expect(hook).toMatchObject({
    event: "payment.completed",
    data: { status: "completed", payment_method: { last4: "4242" } },
  });
});

for (const [number, code, reason] of [
  [CARDS.declined, "card_declined", "Your card was declined."],
  [CARDS.insufficientFunds, "insufficient_funds", "Your card has insufficient funds."],
  [CARDS.expired, "expired_card", "Your card has expired."],
] as const)
  test(`${number} fails it: "${reason}" on the page, payment.failed signed with ${code}, and the dashboard says so`, async ({
    page,
    seedData,
  }) => {
    const { id, checkoutUrl } = await newPayment(page, seedData.tokens.api);
    await page.goto(checkoutUrl);
    await fillCard(page, number);
    await page.getByRole("button", { name: "Pay $12.50" }).click();
    const result = page.getByRole("alert").filter({ hasText: "Payment failed" });
    await expect(result).toContainText(reason);
    expect(await finalWebhook(id)).toMatchObject({
      event: "payment.failed",
      data: { status: "failed", failure_code: code, failure_reason: reason },
    });
    await logInAs(page, seedData.seed);
    await page.goto(`/dashboard/payments/${id}`);
    await expect(page.getByText(code, { exact: true })).toBeVisible();
    await expect(page.getByText(reason, { exact: true }).first()).toBeVisible();
  });

for (const [button, status, shown] of [
  ["Complete authentication", "completed", "Payment complete"],
  ["Fail authentication", "failed", "The payer failed authentication."],
] as const)
  test(`the authentication card, then "${button}": ${status}`, async ({ page, seedData }) => {
    const { id, checkoutUrl } = await newPayment(page, seedData.tokens.api);
    await page.goto(checkoutUrl);
    await fillCard(page, CARDS.authentication);
    await page.getByRole("button", { name: "Pay $12.50" }).click();
    await expect(page.getByRole("heading", { name: "Authenticate this payment" })).toBeVisible();
    await expect(page.getByText("Visa •••• 3184")).toBeVisible();
    await page.getByRole("button", { name: button }).click();
    await expect(page.getByText(shown)).toBeVisible();
    expect(await finalWebhook(id)).toMatchObject({ event: `payment.${status}` });
  });

test("field errors show inline and are announced; nothing changes", async ({ page, seedData }) => {
  const { id, checkoutUrl } = await newPayment(page, seedData.tokens.api);
  await page.goto(checkoutUrl);
  await fillCard(page, CARDS.real);
  await page.getByRole("button", { name: "Pay $12.50" }).click();
  await expect(page.getByText("Use a test card number.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Card number")).toBeFocused();
  await fillCard(page, CARDS.success);
  await page.getByLabel("Expiration").fill("01 / 20");
  await page.getByRole("button", { name: "Pay $12.50" }).click();
  await expect(page.getByText("Your card's expiration date is in the past.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Expiration")).toBeFocused();
  await expect(page.getByLabel("Card number")).not.toHaveAttribute("aria-invalid", "true");
  const payment = (await (
    await page.request.get(`/api/payments/${id}`, {
      headers: { Authorization: `Bearer ${seedData.tokens.api}` },
    })
  ).json()) as { data: { status: string } };
  expect(payment.data.status).toBe("pending");
});

test("a second tab paying after the first sees the final state", async ({ page, context, seedData }) => {
  const { checkoutUrl } = await newPayment(page, seedData.tokens.api);
  const second = await context.newPage();
  await page.goto(checkoutUrl);
  await second.goto(checkoutUrl);
  await fillCard(page, CARDS.success);
  await page.getByRole("button", { name: "Pay $12.50" }).click();
  await expect(page.getByText("Payment complete")).toBeVisible();
  await fillCard(second, CARDS.declined);
  await second.getByRole("button", { name: "Pay $12.50" }).click();
  await expect(second.getByText("Payment complete")).toBeVisible();
  await expect(second.getByText("Paid with Visa •••• 4242.")).toBeVisible();
});

test("a payment link paid twice makes two payments, counted on the Payment links page", async ({
  page,
  seed,
}) => {
  await logInAs(page, seed);
  await page.goto("/dashboard/payment-links");
  const name = `Workshop ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Amount").fill("40.00");
  await page.getByRole("button", { name: "Create link" }).click();
  const url = (await page.getByTestId("new-link-url").textContent())!;
  const checkouts: string[] = [];
  for (let payer = 0; payer < 2; payer++) {
    await page.goto(url);
    // The link's own page: nothing is made until the payer submits the form.
    await expect(page).toHaveURL(url);
    await expect(page.getByText(name)).toBeVisible();
    await fillCard(page, CARDS.success);
    await page.getByRole("button", { name: "Pay $40.00" }).click();
    await expect(page.getByText("Payment complete")).toBeVisible();
    await expect(page).toHaveURL(/\/pay\/[0-9]+_[0-9A-Za-z]{43}$/);
    checkouts.push(page.url());
  }
  expect(checkouts[0]).not.toBe(checkouts[1]);
  await page.goto("/dashboard/payment-links");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell").nth(3)).toHaveText("2");
  // Its URL is shown, and opens in a new tab.
  await expect(row.getByText(url, { exact: true })).toBeVisible();
  const open = row.getByRole("link", { name: `Open ${name} in a new tab` });
  await expect(open).toHaveAttribute("href", url);
  await expect(open).toHaveAttribute("target", "_blank");
  // Its page lists its two payments.
  await row.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByRole("table", { name: "Payments" }).getByRole("row")).toHaveCount(3);
  await page.goto("/dashboard/payment-links");
  // Deactivating asks first; going back changes nothing.
  await row.getByRole("button", { name: "Deactivate" }).click();
  const confirm = page.getByRole("dialog", { name: `Deactivate “${name}”?` });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByText("active", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Deactivate" }).click();
  await confirm.getByRole("button", { name: "Deactivate" }).click();
  await expect(row).toContainText("inactive");
  await page.goto(url);
  await expect(page.getByText("This payment link is no longer active.")).toBeVisible();
});

for (const view of VIEWS)
  test(`the checkout page, its authentication step and the Payment links page: 0 axe violations (${view.name})`, async ({
    page,
    seed,
    seedData,
  }) => {
    await showIn(page, view);
    const shot = (name: string) =>
      page.screenshot({ path: `test-results/screenshots/${name}-${view.name}.png`, fullPage: true });
    const { id, checkoutUrl } = await newPayment(page, seedData.tokens.api, {
      external_id: `a11y_${view.name}`,
    });
    await page.goto(checkoutUrl);
    expect(await allViolations(page), "checkout page").toEqual([]);
    await shot("checkout");
    await page.getByRole("button", { name: "Pay $12.50" }).click();
    await expect(page.getByText("Your card number is invalid.", { exact: true })).toBeVisible();
    expect(await allViolations(page), "checkout page with errors").toEqual([]);
    await shot("checkout-errors");
    await fillCard(page, CARDS.authentication);
    await page.getByRole("button", { name: "Pay $12.50" }).click();
    await expect(page.getByRole("heading", { name: "Authenticate this payment" })).toBeVisible();
    // The step renders after a refresh, which streams the page's title in again.
    await expect(page).toHaveTitle(/Pay/);
    expect(await allViolations(page), "authentication step").toEqual([]);
    await shot("authentication");
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(page.getByText("Payment complete")).toBeVisible();
    await expect(page).toHaveTitle(/Pay/);
    expect(await allViolations(page), "result").toEqual([]);
    await shot("checkout-result");
    await logInAs(page, seed);
    // The merchant's view of it: the card it was paid with, and how (the timeline).
    await page.goto(`/dashboard/payments/${id}`);
    await expect(page.getByText("Visa •••• 3184", { exact: true })).toBeVisible();
    await expect(page.getByText("Paid with Visa •••• 3184 at checkout.")).toBeVisible();
    await shot("payment-paid");
    const pending = await newPayment(page, seedData.tokens.api);
    await page.goto(`/dashboard/payments/${pending.id}`);
    await expect(page.getByRole("button", { name: "Copy payment link" })).toBeVisible();
    await shot("payment-pending");
    await page.goto("/dashboard/payment-links");
    await page.getByLabel("Name", { exact: true }).fill(`Gift card ${view.name}`);
    await page.getByLabel("Amount").fill("15.00");
    await page.getByRole("button", { name: "Create link" }).click();
    await expect(page.getByTestId("new-link-url")).toBeVisible();
    expect(await allViolations(page), "payment links page").toEqual([]);
    await shot("payment-links");
  });
