import { axeOn, showIn } from "./axe";
import { createPaymentViaApi, expect, logInAs, samePage, signUp, test, uniqueEmail } from "./fixtures";
import { findFreePort } from "../tests/support/free-port";
import { WebhookReceiver } from "../tests/support/webhook-receiver";

const receiver = new WebhookReceiver();
// A port of its own: another worker's spec may be listening on one at the same time.
const port = findFreePort();

test.beforeAll(() => receiver.listen(port));
test.afterAll(() => receiver.close());

test("endpoint health, signed bodies, payment links and test labels; edit an endpoint", async ({
  page,
  seed,
  seedData,
}) => {
  const path = `/health-${Date.now()}`;
  const url = `http://127.0.0.1:${port}${path}`;
  await logInAs(page, seed);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const endpointPage = page.url();

  const paymentPath = await createPaymentViaApi(page.request, seedData.tokens.api, { amount: 3 });
  await page.getByRole("button", { name: "Send test event" }).click();
  await receiver.waitFor(path, (received) => received.length >= 2);

  await page.goto("/dashboard/webhooks");
  const row = page.getByRole("row").filter({ hasText: url });
  await expect(row).toContainText("100% of 2 succeeded");
  await expect(row).toContainText("last 200");
  await expect(row).toContainText("enabled");

  await page.goto(endpointPage);
  const fromPayment = page.getByTestId("delivery").filter({ hasNotText: "test" });
  await fromPayment.locator("summary").first().click();
  await fromPayment.getByText("Signed body").click();
  const paymentId = paymentPath.split("/").at(-1)!;
  await expect(fromPayment.locator("pre")).toContainText(`"id": ${paymentId}`);
  await expect(fromPayment.locator("pre")).toContainText('"event": "payment.pending"');
  const testDelivery = page.getByTestId("delivery").filter({ hasText: "test" });
  await testDelivery.locator("summary").first().click();
  await expect(testDelivery.getByText("Test event sent from the dashboard; no payment.")).toBeVisible();
  await expect(fromPayment.locator("summary").first()).toContainText(/HTTP 2\d\d · \d+ ms/);
  await fromPayment.getByRole("link", { name: `Payment ${paymentId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${paymentId}#evt_`));

  // Edit: a bad URL keeps the choices; a good one saves all three fields.
  await page.goto(endpointPage);
  await page.getByText("Edit URL, description and events").click();
  const editForm = page.locator("form").filter({ has: page.getByRole("heading", { name: "Edit endpoint" }) });
  await editForm.getByLabel("Endpoint URL").fill("ftp://example.com");
  await editForm.getByLabel("payment.pending").uncheck();
  await editForm.getByRole("button", { name: "Save endpoint" }).click();
  await expect(editForm.getByText("The url field must start with https:// or http://.")).toBeVisible();
  await expect(editForm.getByLabel("payment.pending")).not.toBeChecked();
  await editForm.getByLabel("Endpoint URL").fill(`${url}/v2`);
  await editForm.getByLabel("Description").fill("Orders, version 2");
  await editForm.getByRole("button", { name: "Save endpoint" }).click();
  await expect(page.getByRole("heading", { name: `${url}/v2` })).toBeVisible();
  await expect(page.getByText("Events: payment.completed, payment.failed")).toBeVisible();
  await expect(page.getByText("Orders, version 2", { exact: true })).toBeVisible();
});

test("adding a URL the merchant already has asks first", async ({ page, seed }) => {
  const url = `https://example.com/twice-${Date.now()}`;
  await logInAs(page, seed);
  for (const attempt of [1, 2]) {
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
    if (attempt === 1) await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  }
  await expect(page.getByText("You already have an endpoint with this URL")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
  await expect(page.getByRole("row").filter({ hasText: url })).toHaveCount(1);
  await page.getByRole("button", { name: "Add endpoint anyway" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  await page.goto("/dashboard/webhooks");
  await expect(page.getByRole("row").filter({ hasText: url })).toHaveCount(2);
});

test("a failing endpoint shows as failing, its delivery as retrying with the next attempt", async ({
  page,
  seed,
}) => {
  // Nothing listens on port 9 (discard): each attempt is refused at once.
  const url = `http://127.0.0.1:9/refused-${Date.now()}`;
  await logInAs(page, seed);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  await page.getByRole("button", { name: "Send test event" }).click();
  // The page refreshes itself while a delivery is pending.
  // Its own row: the seeded merchant's payments from specs running beside this one are delivered here too.
  const delivery = page.getByTestId("delivery").filter({ hasText: "Test event sent from the dashboard" });
  // The first retry comes 5 s after the first attempt: on a loaded machine the page can first show it already
  // made (attempt 3, the next in 5 min).
  await expect(delivery).toContainText(
    /retrying\s*attempt [23], next (in \d+ (sec|min)|in a moment|just now)/,
  );
  // The latest attempt's outcome and latency, on the row itself.
  await expect(delivery).toContainText(/no response · \d+ ms/);

  // "Failed since" takes a UTC time as the dashboard writes it; anything else is refused, saying how.
  const recover = page.locator("form").filter({ has: page.getByRole("button", { name: "Recover failed" }) });
  for (const [since, message] of [
    ["yesterday", "Enter the since time as YYYY-MM-DD HH:MM in UTC, such as 2026-11-25 09:30."],
    ["2026-02-30 10:00", "Enter the since time as YYYY-MM-DD HH:MM in UTC, such as 2026-11-25 09:30."],
    ["2999-01-01 00:00", "The since field must be a time in the past."],
  ]) {
    // The page refreshes itself every 2 s while the delivery is pending; an answer that lands during a
    // refresh can be dropped by Next.js, so a submission is tried again until its message shows.
    await expect(async () => {
      await recover.getByLabel("Failed since (UTC)").fill(since!);
      await recover.getByRole("button", { name: "Recover failed" }).click();
      await expect(recover.getByText(message!)).toBeVisible({ timeout: 3000 });
    }).toPass({ timeout: 30_000 });
  }
  await expect(async () => {
    await recover.getByLabel("Failed since (UTC)").fill("2020-01-01 00:00");
    await recover.getByRole("button", { name: "Recover failed" }).click();
    await expect(page.getByText("0 failed deliveries queued again.")).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByText("failing", { exact: true })).toBeVisible();
  await page.goto("/dashboard/webhooks");
  const row = page.getByRole("row").filter({ hasText: url });
  await expect(row).toContainText("failing");
  await expect(row).toContainText(/0% of \d succeeded/);
});

test("an endpoint the platform disables: a banner on every page, the notice on the other endpoint, re-enable", async ({
  page,
}) => {
  const stamp = Date.now();
  const gonePath = `/gone-${stamp}`;
  const noticePath = `/notices-${stamp}`;
  receiver.script(gonePath, [410]);
  await signUp(page, { name: "Gone Shop", email: uniqueEmail("gone"), password: "correct horse battery" });
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}${noticePath}`);
  await page.getByLabel("webhook_endpoint.disabled").check();
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const noticePage = page.url();
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}${gonePath}`);
  await expect(page.getByLabel("webhook_endpoint.disabled")).not.toBeChecked();
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const gonePage = page.url();

  await page.getByRole("button", { name: "Send test event" }).click();
  await receiver.waitFor(noticePath, (hooks) =>
    hooks.some((hook) => hook.payload.event === "webhook_endpoint.disabled"),
  );

  await page.goto("/dashboard/payments");
  const banner = page.getByTestId("disabled-endpoints-banner");
  await expect(banner).toContainText(`http://127.0.0.1:${port}${gonePath}`);
  await expect(banner).toContainText("The endpoint answered 410 Gone.");
  await page.goto(noticePage);
  const notice = page.getByTestId("delivery").filter({ hasText: "webhook_endpoint.disabled" });
  await expect(notice).toContainText("operational");
  await notice.locator("summary").first().click();
  await expect(
    notice.getByText("Sent because the platform disabled another of your endpoints."),
  ).toBeVisible();

  await page.screenshot({ path: "test-results/disabled-endpoint-banner.png", fullPage: true });
  // In dark and on a phone too: no contrast or naming problem axe can find, and nothing wider than the screen.
  for (const view of [
    { name: "dark", colorScheme: "dark", width: 1280 },
    { name: "phone", colorScheme: "light", width: 390 },
  ] as const) {
    await showIn(page, view);
    await page.goto("/dashboard/payments");
    await expect(banner).toBeVisible();
    const { violations } = await axeOn(page)
      .include('[data-testid="disabled-endpoints-banner"]')
      .withTags(["wcag2a", "wcag2aa"])
      .analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/disabled-endpoint-banner-${view.name}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(noticePage);
  await banner.getByRole("link", { name: "Review and re-enable" }).click();
  await expect(page).toHaveURL(samePage(gonePage));
  await page.getByRole("button", { name: "Enable endpoint" }).click();
  await expect(page.getByTestId("disabled-endpoints-banner")).toHaveCount(0);
});

test("a disabled endpoint gets no test event: the page says to enable it, and a page left open is refused", async ({
  page,
}) => {
  const path = `/disabled-test-${Date.now()}`;
  // A merchant of its own: the seed's payments, made by specs running beside this one, would be delivered to the
  // endpoint in the moment before it is disabled (CI, 2026-12-06).
  await signUp(page, {
    name: "Disabled Shop",
    email: uniqueEmail("disabled"),
    password: "correct horse battery",
  });
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}${path}`);
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);

  // Another tab disables the endpoint while this one still offers the test event.
  const otherTab = await page.context().newPage();
  await otherTab.goto(page.url());
  await otherTab.getByRole("button", { name: "Disable endpoint" }).click();
  await expect(otherTab.getByRole("button", { name: "Enable endpoint" })).toBeVisible();
  await otherTab.close();

  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "This endpoint is disabled: enable it to send a test event." }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByText("Enable this endpoint to send it a test event.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send test event" })).toHaveCount(0);
  await expect(page.getByTestId("delivery")).toHaveCount(0);
  expect(receiver.on(path)).toHaveLength(0);
});
