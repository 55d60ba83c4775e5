import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startShop, type Shop } from "./shop";

// PAYMENTS_API_URL is the platform, PAYMENTS_API_KEY a write key, and WEBHOOK_SECRET the signing secret of the
// webhook endpoint that points at your shop's /webhooks (Webhooks → Add endpoint).
const platform = process.env.PAYMENTS_API_URL;
const api = { Authorization: `Bearer ${process.env.PAYMENTS_API_KEY}` };

let shop: Shop;
test.beforeAll(async () => {
  shop = await startShop(Number(process.env.SHOP_PORT ?? 4242));
});
test.afterAll(() => shop?.close());

test("a customer pays with 4242", async ({ page, request }) => {
  const created = await request.post(`${platform}/api/payments`, {
    headers: { ...api, Prefer: "return=representation" },
    data: {
      amount: "12.50",
      currency: "EUR",
      external_id: "order_7",
      return_url: `${shop.url}/done?order=7`,
    },
  });
  expect(created.status()).toBe(201);
  const { data: payment } = (await created.json()) as { data: { id: number; checkout_url: string } };

  await page.goto(payment.checkout_url);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Ada Lovelace");
  await page.getByRole("button", { name: "Pay €12.50" }).click();
  await expect(page).toHaveURL(/payment_id=\d+&status=completed/);

  // Your shop got payment.completed; verify it as your backend does:
  const { body, headers } = await shop.nextWebhook("payment.completed");
  const event = new Webhook(process.env.WEBHOOK_SECRET!).verify(body, headers);
  expect(event).toMatchObject({
    event: "payment.completed",
    data: { id: payment.id, status: "completed", payment_method: { last4: "4242" } },
  });
});
