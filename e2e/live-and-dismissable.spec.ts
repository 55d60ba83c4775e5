import type { Page } from "@playwright/test";
import { seriousViolations, showIn, VIEWS } from "./axe";
import { expect, logInAs, signUp, test, uniqueEmail } from "./fixtures";

// Issue 40, "Live and dismissable": the Logs filters apply on change, the Overview's 429 notice can be
// dismissed, a waiting retry's "Retry now" shows without opening its row, and an event's page resends.

/** Light, dark and a 390 px phone: a screenshot each, no horizontal scroll, no serious axe finding. */
async function inEveryView(page: Page, name: string) {
  for (const view of VIEWS) {
    await showIn(page, view);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/${name}-${view.name}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the Logs filters apply as soon as a select changes", async ({ page, seed }) => {
  await logInAs(page, seed);
  await page.goto("/dashboard/logs");
  await page.getByLabel("Status").selectOption("4xx");
  await expect(page).toHaveURL(/[?&]status=4xx/);
  await expect(page.getByLabel("Status")).toHaveValue("4xx");
  await page.getByLabel("Method").selectOption("POST");
  await expect(page).toHaveURL(/[?&]status=4xx&method=POST/);
  await expect(page.getByLabel("Method")).toHaveValue("POST");
  await inEveryView(page, "logs-filtered");
});

test("the Overview's 429 notice names the key and can be dismissed, for good", async ({ page, seedData }) => {
  // The limited merchant keeps the default 30 requests a minute per key.
  let refused = 0;
  for (let sent = 0; sent < 40 && refused === 0; sent++) {
    const response = await page.request.get("/api/payments?perPage=1", {
      headers: { Authorization: `Bearer ${seedData.tokens.rateLimit}` },
    });
    if (response.status() === 429) refused++;
  }
  expect(refused).toBe(1);
  await logInAs(page, seedData.limited);
  const notice = page.getByRole("region", { name: "A key hit its rate limit" });
  // Recorded just after the 429's answer.
  await expect(async () => {
    await page.reload();
    await expect(notice).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(notice).toContainText("“rateLimit”");
  await expect(notice).toContainText("goes once the limit is raised, or after 24 hours without a 429");
  await inEveryView(page, "overview-rate-limited");
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test("a waiting retry shows Retry now on its row; an event's page resends its delivery", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, { name: "Retry QA", email: uniqueEmail("retry"), password: "retry passphrase" });
  // An inbox that fails the next two deliveries: the test event's first retry (in 5 s) fails too, and the
  // next waits 5 minutes.
  await page.goto("/dashboard/webhooks");
  await page.getByRole("button", { name: "Add inbox" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const inboxPath = new URL(page.url()).pathname;
  await page.getByLabel("Answer").selectOption("503");
  await page.getByLabel("For the next (deliveries)").fill("2");
  await page.getByRole("button", { name: "Save answer" }).click();
  await expect(page.getByText("Now: answers 503 to the next 2 deliveries.")).toBeVisible();
  await page.getByRole("button", { name: "Send test event" }).click();

  const delivery = page.getByTestId("delivery");
  await expect(delivery).toContainText(/retrying\s*attempt 3, next in 5 min/, { timeout: 45_000 });
  const retryNow = delivery.getByRole("button", { name: "Retry now" });
  // Visible with the row closed.
  await expect(delivery.locator("details").first()).not.toHaveAttribute("open");
  await expect(retryNow).toBeVisible();
  await inEveryView(page, "deliveries-retry-now");
  // The page refreshes itself while the delivery waits: a click that lands during a refresh is tried again.
  await expect(async () => {
    await page.getByTestId("delivery").getByRole("button", { name: "Retry now" }).click({ timeout: 2_000 });
    await expect(page.getByTestId("delivery")).toContainText("succeeded", { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await expect(page.getByTestId("delivery").getByRole("button", { name: "Retry now" })).toHaveCount(0);

  // The event's page: its delivery, delivered, with Resend.
  await page.getByTestId("delivery").locator("summary").first().click();
  await page.getByRole("link", { name: "View event" }).click();
  await expect(page).toHaveURL(/\/dashboard\/events\/evt_\w+$/);
  const row = page.getByTestId("event-delivery");
  await expect(row).toContainText("succeeded");
  await inEveryView(page, "event-resend");
  await row.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText("Delivery queued again.")).toBeVisible();
  // Sent again to the inbox: a third attempt on the endpoint's log.
  await page.goto(inboxPath);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("delivery")).toContainText("4 attempts", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
});
