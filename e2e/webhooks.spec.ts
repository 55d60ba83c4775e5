import { confirmItsYou, expect, logInAs, navLink, settleInDashboard, test } from "./fixtures";
import { findFreePort } from "../tests/support/free-port";
import { WebhookReceiver } from "../tests/support/webhook-receiver";

const receiver = new WebhookReceiver();
// A port of its own: another worker's spec may be listening on one at the same time.
const port = findFreePort();

test.beforeAll(() => receiver.listen(port));
test.afterAll(() => receiver.close());

test("add an endpoint, receive signed payment events, inspect deliveries, send a test event", async ({
  page,
  request,
  seed,
  seedData,
}) => {
  await logInAs(page, seed);
  await navLink(page, "Webhooks").click();
  await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();

  await page.getByLabel("Endpoint URL").fill("ftp://example.com/hooks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("The url field must start with https:// or http://.")).toBeVisible();

  const path = `/e2e-${Date.now()}`;
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}${path}`);
  await page.getByLabel("Description").fill("QA receiver");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  await expect(page.getByRole("heading", { name: `http://127.0.0.1:${port}${path}` })).toBeVisible();

  await page.getByRole("button", { name: "Reveal secret" }).click();
  await confirmItsYou(page, seed.password);
  const secret = (await page.getByTestId("signing-secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  receiver.expectSecret(path, secret);

  const created = await request.post("/api/payments", {
    headers: { Authorization: `Bearer ${seedData.tokens.api}` },
    data: { amount: 25, external_id: `e2e_${Date.now()}` },
  });
  expect(created.status()).toBe(201);
  await receiver.waitFor(path, (received) => received.length >= 1);
  // Settle it by hand, as QA does: the payment.completed event follows.
  const endpointPage = page.url();
  await page.goto(created.headers().location!.replace("/api/payments/", "/dashboard/payments/"));
  await settleInDashboard(page, "Mark as paid");
  await expect(page.getByText("Marked as paid.")).toBeVisible();
  const hooks = await receiver.waitFor(path, (received) => received.length >= 2);
  expect(hooks.map((hook) => hook.payload.event)).toEqual(["payment.pending", "payment.completed"]);
  expect(hooks.every((hook) => hook.verified)).toBe(true);

  // Back to the endpoint's page by its address: settling adds a history entry of the payment's page.
  await page.goto(endpointPage);
  const deliveries = page.getByTestId("delivery");
  await expect(deliveries).toHaveCount(2);
  await expect(deliveries.filter({ hasText: "payment.completed" })).toContainText("succeeded");
  await deliveries.filter({ hasText: "payment.pending" }).locator("summary").first().click();
  await expect(
    deliveries.filter({ hasText: "payment.pending" }).getByRole("cell", { name: /^HTTP 200 · \d+ ms$/ }),
  ).toBeVisible();

  await page.getByLabel("Event type").selectOption("payment.failed");
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText(/Test event evt_\w+ queued\./)).toBeVisible();
  const test = (await receiver.waitFor(path, (received) => received.length >= 3)).at(-1)!;
  expect(test.payload.event).toBe("payment.failed");
  expect(test.verified).toBe(true);

  await page.getByRole("link", { name: "failed", exact: true }).click();
  await expect(page.getByText("No deliveries with status failed yet.")).toBeVisible();

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page
    .getByRole("dialog", { name: "Rotate the signing secret?" })
    .getByRole("button", { name: "Rotate" })
    .click();
  await expect(page.getByText("The previous secret keeps signing alongside it for 24 hours.")).toBeVisible();
  const rotated = (await page.getByTestId("signing-secret").textContent())!;
  expect(rotated).not.toBe(secret);

  await page.getByRole("button", { name: "Disable endpoint" }).click();
  await expect(page.getByText("Endpoint disabled.")).toBeVisible();
  await page.getByRole("button", { name: "Delete endpoint" }).click();
  await page
    .getByRole("dialog", { name: "Delete this endpoint?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
  await expect(page.getByText(`127.0.0.1:${port}${path}`)).toHaveCount(0);
});
