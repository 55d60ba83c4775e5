import type { Locator, Page } from "@playwright/test";
import { seriousViolations, showIn, VIEWS } from "./axe";
import {
  createPaymentViaApi,
  expect,
  settleInDashboard,
  signUp,
  test,
  uniqueEmail,
  confirmItsYou,
} from "./fixtures";

// The QA recipe (docs/webhooks.md, "Inboxes: testing webhooks without a server"): an inbox, a payment through the API, its
// capture verified, the inbox set to fail, the payment settled, the failed attempt, the retry on schedule,
// "Retry now", and the signature debugger on a capture as received and as a re-serialised body would be.

/** A capture row, found again after each reload (the page refreshes itself while a delivery is pending). */
const captureOf = (page: Page, event: string, attempt: number): Locator =>
  page
    .getByTestId("capture")
    .filter({ hasText: event })
    .filter({ hasText: new RegExp(`attempt ${attempt}(?!\\d)`) });

/** Reloads until the capture shows; deliveries are asynchronous and CI is slow. */
async function waitForCapture(page: Page, event: string, attempt: number, text: string) {
  await expect(async () => {
    await page.reload();
    await expect(captureOf(page, event, attempt)).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 45_000, intervals: [500, 1_000, 2_000] });
}

test("QA recipe: an inbox captures, verifies, fails on purpose, retries, and the debugger says why", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, { name: "Inbox QA", email: uniqueEmail("inbox"), password: "inbox passphrase" });

  // An API token for the merchant's backend.
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Token name").fill("QA backend");
  await page.getByRole("button", { name: "Generate token" }).click();
  await confirmItsYou(page, "inbox passphrase");
  const token = (await page.getByTestId("new-token").textContent())!;

  // An inbox, from the Webhooks page.
  await page.goto("/dashboard/webhooks");
  await page.getByRole("button", { name: "Add inbox" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inbox");
  const inboxPath = new URL(page.url()).pathname;

  // A payment through the API: its payment.pending is captured and verified.
  const paymentPath = await createPaymentViaApi(page.request, token, {
    amount: "25.00",
    external_id: `qa_${Date.now()}`,
  });
  await waitForCapture(page, "payment.pending", 1, "answered 200");
  const pending = captureOf(page, "payment.pending", 1);
  await expect(pending).toContainText("signature verified");
  await pending.locator("summary").first().click();
  await expect(pending.getByRole("rowheader", { name: "webhook-signature" })).toBeVisible();
  await expect(pending.getByText('"event": "payment.pending"')).toBeVisible();

  // The inbox answers 503 to the next two deliveries.
  await page.getByLabel("Answer").selectOption("503");
  await page.getByLabel("For the next (deliveries)").fill("2");
  await page.getByRole("button", { name: "Save answer" }).click();
  await expect(page.getByText("Now: answers 503 to the next 2 deliveries.")).toBeVisible();

  // Settling the payment: the first attempt fails, the retry 5 s later fails too, then it waits 5 minutes.
  await page.goto(paymentPath);
  await settleInDashboard(page, "Mark as paid");
  await expect(page.getByText("Marked as paid.")).toBeVisible();
  await page.goto(inboxPath);
  await waitForCapture(page, "payment.completed", 1, "answered 503");
  await waitForCapture(page, "payment.completed", 2, "answered 503");
  const delivery = page.getByTestId("delivery").filter({ hasText: "payment.completed" });
  await expect(delivery).toContainText("retrying");
  await expect(delivery).toContainText("attempt 3");
  await expect(page.getByText("Now: answers 200.")).toBeVisible();

  // "Retry now" sends it at once: captured under the same webhook-id, answered 200.
  await expect(async () => {
    await page.reload();
    const retrying = page.getByTestId("delivery").filter({ hasText: "payment.completed" });
    await retrying.locator("summary").first().click();
    await retrying.getByRole("button", { name: "Retry now" }).click({ timeout: 2_000 });
    await expect(captureOf(page, "payment.completed", 3)).toContainText("answered 200", { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  const ids = await page
    .getByTestId("capture")
    .filter({ hasText: "payment.completed" })
    .locator("summary > .font-mono")
    .allTextContents();
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(1);

  for (const view of VIEWS) {
    await showIn(page, view);
    await page.goto(inboxPath);
    await captureOf(page, "payment.completed", 1).locator("summary").first().click();
    expect(await seriousViolations(page), `inbox ${view.name}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/inbox-${view.name}.png`, fullPage: true });
  }
  await showIn(page, VIEWS[0]);

  // The debugger, from a capture: as received it verifies; a re-serialised body is found out.
  await page.goto(inboxPath);
  const first = captureOf(page, "payment.pending", 1);
  await first.locator("summary").first().click();
  await first.getByRole("link", { name: "Open in the signature debugger" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signature debugger");
  await page.getByRole("button", { name: "Check signature" }).click();
  await expect(page.getByText("Valid signature")).toBeVisible();
  const body = await page.getByLabel("Body").inputValue();
  await page.getByLabel("Body").fill(JSON.stringify(JSON.parse(body), null, 2));
  await page.getByRole("button", { name: "Check signature" }).click();
  await expect(page.getByText("Does not verify: body_mismatch")).toBeVisible();
  await expect(page.getByText(/first differ at character \d+/)).toBeVisible();
  await expect(page.locator("body")).not.toContainText("whsec_");
  await page.getByLabel("Headers").fill("not headers at all");
  await page.getByRole("button", { name: "Check signature" }).click();
  await expect(
    page.getByText('Paste the headers as a JSON object, or as "Name: value" lines.'),
  ).toBeVisible();

  for (const view of VIEWS) {
    await showIn(page, view);
    await page.reload();
    await page.getByRole("button", { name: "Check signature" }).click();
    await expect(page.getByText("Valid signature")).toBeVisible();
    expect(await seriousViolations(page), `debugger ${view.name}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/debugger-${view.name}.png`, fullPage: true });
  }
});
