import {
  createTestPaymentInDashboard,
  expect,
  navLink,
  settleInDashboard,
  signUp,
  test,
  uniqueEmail,
} from "./fixtures";

test("the Events page: a type filter, each event's body and deliveries, linked from the payment and the endpoint; another merchant's event is a 404", async ({
  page,
}) => {
  await signUp(page, { name: "Events Co", email: uniqueEmail("events"), password: "events passphrase" });
  const endpointUrl = `https://example.com/events-${Date.now()}`;
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(endpointUrl);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const endpointPath = new URL(page.url()).pathname;

  await createTestPaymentInDashboard(page, "5.00");
  await page.getByRole("row").nth(1).getByRole("link").click();
  await settleInDashboard(page, "Mark as paid");
  await expect(page.getByText("Marked as paid.")).toBeVisible();
  const paymentId = new URL(page.url()).pathname.split("/").at(-1)!;

  // From the payment to its events.
  await page.getByRole("link", { name: "Open in Events →" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/events\\?payment_id=${paymentId}$`));
  const rows = page.getByRole("table", { name: "Events" }).getByRole("row");
  await expect(rows).toHaveCount(3); // heading and two events
  await expect(rows.nth(1)).toContainText("payment.completed");
  await expect(rows.nth(2)).toContainText("payment.pending");

  // The whole list, filtered by type.
  await navLink(page, "Events").click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  await page.getByLabel("Type").selectOption("payment.pending");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/type=payment\.pending/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("payment.pending");
  await expect(page.getByText("1 event", { exact: true })).toBeVisible();
  await expect(page.getByText("Page 1 of 1")).toBeVisible();

  // One event: its exact body and its delivery to the endpoint.
  await rows.nth(1).getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: "payment.pending", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Body" })).toContainText(`"id": ${paymentId}`);
  await expect(page.getByRole("region", { name: "Body" })).toContainText('"status": "pending"');
  const delivery = page.getByTestId("event-delivery");
  await expect(delivery).toHaveCount(1);
  await expect(delivery).toContainText(endpointUrl);
  const eventPath = new URL(page.url()).pathname;
  await delivery.getByRole("link", { name: endpointUrl }).click();
  await expect(page).toHaveURL(new RegExp(`${endpointPath}$`));

  // And back from the endpoint's deliveries log.
  await page
    .getByTestId("delivery")
    .filter({ hasText: "payment.pending" })
    .locator("summary")
    .first()
    .click();
  await page
    .getByTestId("delivery")
    .filter({ hasText: "payment.pending" })
    .getByRole("link", { name: "View event" })
    .click();
  await expect(page).toHaveURL(new RegExp(`${eventPath}$`));

  // A crafted filter is left out; another merchant's event is not found.
  expect((await page.goto("/dashboard/events?type=nope&page=abc"))!.status()).toBe(200);
  await expect(page.getByText("Page 1 of 1")).toBeVisible();
  await page.context().clearCookies();
  await signUp(page, { name: "Nosy Co", email: uniqueEmail("nosy"), password: "nosy passphrase" });
  expect((await page.goto(eventPath))!.status()).toBe(404);
  expect((await page.goto("/dashboard/events/evt_nope"))!.status()).toBe(404);
  await page.goto("/dashboard/events");
  await expect(page.getByText("No events yet").first()).toBeVisible();
});
