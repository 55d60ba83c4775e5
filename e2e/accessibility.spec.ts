import { allViolationsInEveryView } from "./axe";
import {
  createPaymentViaApi,
  disputePayment,
  expect,
  inSeedTestSandbox,
  logInAs,
  startTwoFactorSetup,
  test,
} from "./fixtures";

// axe-core over every page, as a merchant sees them: light and dark at 1280 px, and a 390 px phone (./axe.ts).
// Each page is opened once and looked at in the three views.

test("no accessibility violation of any impact on any page, in light, in dark and on a phone", async ({
  page,
  seed,
  baseURL,
}) => {
  // In the seed's Test sandbox, not the worker's: its seeded key with the payout-account scope gives the payout
  // pages a payout account.
  const tokens = await inSeedTestSandbox(page.context(), baseURL!);
  const seedData = { tokens };
  // About forty pages and dialogs, each analysed by axe in three views at every impact: 1.3 minutes a view on
  // a quiet machine, over 3 in CI's (2026-11-27), 10.2 minutes in all on a slow day (2026-12-07), two thirds of
  // the 15 it had; the timeout only ends a walk that is stuck.
  test.setTimeout(1_800_000);
  for (const path of ["/login", "/signup"]) {
    await page.goto(path);
    expect(await allViolationsInEveryView(page), path).toEqual({});
  }
  const paymentPath = await createPaymentViaApi(page.request, seedData.tokens.api, {
    amount: 2500,
    external_id: "a11y",
    customer_id: "cus_a11y",
  });
  // A completed payment with a pending refund: the Refunds table, its buttons and the marks.
  const refundedPath = await createPaymentViaApi(page.request, seedData.tokens.api, { amount: 30 });
  const refundedId = refundedPath.split("/").at(-1);
  const headers = { Authorization: `Bearer ${seedData.tokens.api}` };
  const settled = await page.request.post(`/api/test-helpers/payments/${refundedId}/settle`, {
    headers,
    data: { outcome: "completed" },
  });
  expect(settled.status()).toBe(200);
  for (const amount of ["5.00", "7.00"]) {
    const refund = await page.request.post(`/api/payments/${refundedId}/refunds`, {
      headers,
      data: { amount },
    });
    expect(refund.status()).toBe(201);
    if (amount === "5.00") {
      const refundId = ((await refund.json()) as { data: { id: number } }).data.id;
      const done = await page.request.post(`/api/test-helpers/refunds/${refundId}/settle`, {
        headers,
        data: { outcome: "succeeded" },
      });
      expect(done.status()).toBe(200);
    }
  }
  // A payout: its page, the Payouts list and the Balance page's next payout.
  const account = await page.request.put("/api/payout-account", {
    headers: { Authorization: `Bearer ${seedData.tokens.payoutAccount}` },
    data: { account_holder: "A11y Ltd", iban: "DE89 3704 0044 0532 0130 00" },
  });
  expect(account.status()).toBe(200);
  expect((await page.request.post("/api/test-helpers/balance/release", { headers })).status()).toBe(200);
  const paidOut = await page.request.post("/api/payouts", { headers, data: { currency: "USD" } });
  // Another test may have paid out everything already: its payout serves.
  const payoutId = paidOut.ok()
    ? ((await paidOut.json()) as { data: { id: number } }).data.id
    : (
        (await (await page.request.get("/api/payouts", { headers })).json()) as {
          data: Array<{ id: number }>;
        }
      ).data[0]!.id;
  // A dispute, with its evidence form (on a payment of its own: the refund dialog below needs its payment).
  const disputedId = (await createPaymentViaApi(page.request, seedData.tokens.api, { amount: 20 }))
    .split("/")
    .at(-1);
  const disputeId = await disputePayment(page.request, seedData.tokens.api, disputedId!);
  await logInAs(page, seed);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`https://example.com/a11y-${Date.now()}`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\/\d+$/);
  const endpointPath = new URL(page.url()).pathname;
  const pages = [
    "/dashboard",
    "/dashboard?range=90",
    "/dashboard/payments",
    "/dashboard/payments?from=2026-02-30",
    "/dashboard/payments?q=a11y&status=failed",
    paymentPath,
    refundedPath,
    "/dashboard/api-keys",
    "/dashboard/webhooks",
    "/dashboard/webhooks/debugger",
    endpointPath,
    "/dashboard/developers",
    "/dashboard/settings",
    "/dashboard/settings/security",
    "/dashboard/team",
    "/dashboard/logs",
    "/dashboard/logs?status=4xx&method=POST",
    "/dashboard/events",
    "/dashboard/events?type=refund.created",
    // The pager's far end (a cursor page) and a payments page with dimmed First and Previous.
    "/dashboard/logs?last=1",
    "/dashboard/payments?pageSize=10&from=2026-01-01",
    "/dashboard/payments/999999999",
    "/dashboard?range=7",
    "/dashboard?range=all",
    "/dashboard/payments?refund=partial",
    "/dashboard/refunds",
    "/dashboard/refunds?status=pending",
    "/dashboard/customers",
    "/dashboard/customers/cus_a11y",
    "/dashboard/payment-links",
    "/dashboard/balance",
    "/dashboard/payouts",
    `/dashboard/payouts/${payoutId}`,
    "/dashboard/settings/payouts",
    "/dashboard/disputes",
    `/dashboard/disputes/${disputeId}`,
  ];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    expect(await allViolationsInEveryView(page), path).toEqual({});
  }
  // What opens on a click: an event's JSON body and the endpoint's edit form.
  await page.goto(paymentPath);
  await page.getByText("Event body").first().click();
  expect(await allViolationsInEveryView(page), "event body").toEqual({});
  // One event's page: its body and deliveries.
  await page.goto("/dashboard/events");
  // The table from 640 px, cards below it: the first event link on screen either way.
  await page.locator('a[href^="/dashboard/events/evt_"]:visible').first().click();
  await expect(page.getByRole("region", { name: "Body" })).toBeVisible();
  expect(await allViolationsInEveryView(page), "event page").toEqual({});
  // The refund dialog, with a refusal beside its amount.
  await page.goto(refundedPath);
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByRole("dialog").getByLabel("Amount").fill("99.00");
  await page.getByRole("dialog").getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByRole("dialog").getByText(/must not be greater than 18\.00/)).toBeVisible();
  expect(await allViolationsInEveryView(page), "refund dialog").toEqual({});
  await page.goto(endpointPath);
  await page.getByText("Edit URL, description and events").click();
  expect(await allViolationsInEveryView(page), "edit endpoint").toEqual({});
  // Two-factor enrolment: the QR code, its key and the code field.
  await page.goto("/dashboard/settings/security");
  await startTwoFactorSetup(page, seed.password);
  expect(await allViolationsInEveryView(page), "two-factor enrolment").toEqual({});
});
