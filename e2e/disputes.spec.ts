import { disputePayment, expect, fillCard, logInAs, newPayment, test } from "./fixtures";
import { CARDS } from "../tests/support/checkout-client";

// QA's dispute rehearsal in Chromium (DESIGN.md, "Disputes"): a payer pays with the dispute test card, the
// dispute appears in the dashboard with the money withdrawn (amount and fee), evidence is drafted, then
// submitted with the magic words, and the win reinstates the amount. Then "Accept dispute" loses another. The
// seeded `priced` merchant's disputes are this file's alone (the first test counts the open ones: none is left
// open after either).

test("4000 0000 0000 0259: a dispute appears, -40.00 and a 15.00 fee; winning evidence wins it and reinstates 40.00", async ({
  page,
  seedData,
}) => {
  const headers = { Authorization: `Bearer ${seedData.tokens.priced}` };
  const { id: paymentId, checkoutUrl } = await newPayment(page, seedData.tokens.priced, {
    amount: "40.00",
    currency: "EUR",
  });
  await page.goto(checkoutUrl);
  await fillCard(page, CARDS.disputed);
  await page.getByRole("button", { name: "Pay €40.00" }).click();
  await expect
    .poll(async () => {
      const payment = await page.request.get(`/api/payments/${paymentId}`, { headers });
      return ((await payment.json()) as { data: { status: string } }).data.status;
    })
    .toBe("completed");

  // The dispute opens a few seconds later; the navigation counts it.
  await logInAs(page, seedData.priced);
  const row = page.getByRole("row").filter({ hasText: String(paymentId) });
  await expect(async () => {
    await page.goto("/dashboard/disputes");
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText("€40.00");
  await expect(row).toContainText("needs response");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Disputes/ }),
  ).toContainText("1 need a response");
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/dashboard\/disputes\/\d+$/);
  const disputePath = new URL(page.url()).pathname;
  const disputeId = disputePath.split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Dispute ${disputeId}`);
  await expect(page.getByText("Fraudulent: the payer says they did not make this payment")).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^in (6|7) days$/ })).toBeVisible();

  // The money: withdrawn with the fee, on the Balance page; the payment says so and offers no refund.
  await page.goto("/dashboard/balance");
  const withdrawn = page.getByRole("row").filter({ hasText: `Dispute ${disputeId}` });
  await expect(withdrawn).toContainText("-€40.00");
  await expect(withdrawn).toContainText("€15.00");
  await expect(withdrawn).toContainText("-€55.00");
  await page.goto(`/dashboard/payments/${paymentId}`);
  await expect(page.getByText("Disputed", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await expect(page.getByText("dispute.funds_withdrawn").first()).toBeVisible();

  // A draft, kept; then the answer, confirmed.
  await page.goto(disputePath);
  await page.getByLabel("Product description").fill("A blue teapot, sent on 2026-11-02.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Draft saved.");
  await page.reload();
  await expect(page.getByLabel("Product description")).toHaveValue("A blue teapot, sent on 2026-11-02.");
  await page.getByLabel("Other evidence").fill("winning_evidence");
  await page.getByRole("button", { name: "Submit evidence" }).click();
  const dialog = page.getByRole("dialog", { name: "Submit this evidence?" });
  await expect(dialog).toContainText("Submitting is final");
  await dialog.getByRole("button", { name: "Submit evidence" }).click();
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Evidence submitted");
  await expect(async () => {
    await page.reload();
    await expect(page.getByText("won", { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // Sent evidence is shown as sent, and there is nothing left to accept.
  await expect(page.getByText("A blue teapot, sent on 2026-11-02.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept dispute" })).toHaveCount(0);
  // Closed, it says how it ended and what moved: the withdrawal and the reinstatement, linked.
  await expect(page.getByTestId("dispute-outcome")).toHaveText(
    "Won: €40.00 was reinstated to your balance. The €15.00 dispute fee stays withdrawn.",
  );
  const moved = page.getByRole("table", { name: "Money moved by this dispute" });
  await expect(moved.getByRole("row").filter({ hasText: `Dispute won ${disputeId}` })).toContainText(
    "€40.00",
  );
  await expect(
    moved
      .getByRole("row")
      .filter({ hasText: `Dispute ${disputeId}` })
      .first(),
  ).toContainText("-€55.00");
  await page.goto("/dashboard/balance");
  await expect(page.getByRole("row").filter({ hasText: "Dispute won" }).first()).toContainText("€40.00");
  await page.goto("/dashboard/disputes?status=won");
  await expect(page.getByRole("row").filter({ hasText: String(paymentId) })).toContainText("won");
  // The row opens its dispute, as a payment's row does, clicked anywhere but its links.
  await page
    .getByRole("row")
    .filter({ hasText: String(paymentId) })
    .getByText("won")
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/disputes/${disputeId}$`));
  // Another merchant: no such dispute.
  const foreign = await page.request.get(`/api/disputes/${disputeId}`, {
    headers: { Authorization: `Bearer ${seedData.tokens.other}` },
  });
  expect(foreign.status()).toBe(404);
});

test("Accept dispute: confirmed, it is lost; the money stays withdrawn and nothing more can be sent", async ({
  page,
  seedData,
}) => {
  const headers = { Authorization: `Bearer ${seedData.tokens.priced}` };
  const { id: paymentId } = await newPayment(page, seedData.tokens.priced, {
    amount: "25.00",
    currency: "EUR",
  });
  const disputeId = await disputePayment(
    page.request,
    seedData.tokens.priced,
    paymentId,
    "product_not_received",
  );

  await logInAs(page, seedData.priced);
  await page.goto(`/dashboard/disputes/${disputeId}`);
  await page.getByRole("button", { name: "Accept dispute" }).click();
  const dialog = page.getByRole("dialog", { name: "Accept this dispute?" });
  await expect(dialog).toContainText("You lose it: €25.00 and the €15.00 dispute fee stay withdrawn.");
  await dialog.getByRole("button", { name: "Accept dispute" }).click();
  await expect(page.getByRole("status", { name: "Notifications" })).toContainText(
    "Dispute accepted: it is lost.",
  );
  await page.reload();
  await expect(page.getByText("lost", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept dispute" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Submit evidence" })).toHaveCount(0);

  // Withdrawn with its fee, and never reinstated; the API agrees, and refuses evidence with a conflict.
  await page.goto("/dashboard/balance");
  await expect(page.getByRole("row").filter({ hasText: `Dispute ${disputeId}` })).toContainText("-€25.00");
  const dispute = await page.request.get(`/api/disputes/${disputeId}`, { headers });
  expect(((await dispute.json()) as { data: { status: string } }).data.status).toBe("lost");
  const late = await page.request.post(`/api/disputes/${disputeId}/evidence`, {
    headers,
    data: { uncategorized_text: "winning_evidence", submit: true },
  });
  expect(late.status()).toBe(409);
  const transactions = await page.request.get(`/api/balance-transactions?type=dispute_won`, { headers });
  const won = ((await transactions.json()) as { data: Array<{ source_id: number }> }).data;
  expect(won.map((row) => row.source_id)).not.toContain(disputeId);
});
