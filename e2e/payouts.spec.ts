import { expect, logInAs, saveBankAccount, test } from "./fixtures";

// The money path in the dashboard (DESIGN.md, "Balances, fees and payouts"): a balance, a bank account, a payout
// made by hand whose transactions add up to it (page and CSV), canceled, made again and paid. The seeded
// `ledger` merchant pays out on the manual schedule and no other browser test moves its balance.

test("balance, payout account, a payout and its reconciliation; cancel, pay out again; another merchant sees none of it", async ({
  page,
  browser,
  seedData,
}) => {
  const headers = { Authorization: `Bearer ${seedData.tokens.ledger}` };
  const api = (method: "get" | "post" | "put", path: string, data?: unknown) =>
    page.request[method](path, { headers, ...(data === undefined ? {} : { data }) });
  // A 10.00 EUR payment, completed: 0.59 fee, 9.41 pending, then available.
  const externalId = `order-${Date.now()}`;
  const created = await api("post", "/api/payments", {
    amount: "10.00",
    currency: "EUR",
    external_id: externalId,
    customer_id: "cus_payout_csv",
  });
  expect(created.status()).toBe(201);
  const paymentId = Number(created.headers().location!.split("/").at(-1));
  expect(
    (await api("post", `/api/test-helpers/payments/${paymentId}/settle`, { outcome: "completed" })).status(),
  ).toBe(200);
  await logInAs(page, seedData.ledger);
  await page.goto("/dashboard/balance");
  const eur = page.getByRole("definition").filter({ hasText: "available" }).filter({ hasText: "€" }).first();
  await expect(eur).toContainText("pending");
  expect((await api("post", "/api/test-helpers/balance/release")).status()).toBe(200);

  // The Overview opens with it.
  await page.goto("/dashboard");
  const overviewBalance = page.getByRole("region", { name: "Balance" });
  await expect(overviewBalance).toContainText(/€[\d,.]+\s*available/);
  await expect(overviewBalance).toContainText(
    "No payouts until you add a bank account in Settings → Payouts.",
  );

  // No bank account yet: the Payouts page says where to add one.
  await page.goto("/dashboard/payouts");
  await expect(page.getByRole("region", { name: "Pay out now" })).toContainText(
    "Add a bank account in Settings → Payouts first.",
  );
  await page.getByRole("link", { name: "Settings → Payouts" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payouts");
  const account = page.getByRole("region", { name: "Bank account" });
  await account.getByLabel("Account holder").fill("Ledger GmbH");
  await account.getByLabel("IBAN").fill("DE00 1234 5678");
  await saveBankAccount(page, seedData.ledger.password);
  await expect(account.getByText("The IBAN field must be a valid IBAN.")).toBeVisible();
  // What was typed stays, to correct rather than retype.
  await expect(account.getByLabel("IBAN")).toHaveValue("DE00 1234 5678");
  await account.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
  // The password was confirmed for the first try, minutes ago in this session: not asked again.
  await saveBankAccount(page, seedData.ledger.password, "Save account", false);
  await expect(page.getByText("Payouts now go to the account ending 3000.")).toBeVisible();
  await expect(page.getByTestId("payout-account")).toContainText("Ledger GmbH, IBAN ending 3000");
  // The IBAN is never shown again, not even in the form.
  await expect(account.getByLabel("IBAN")).toHaveValue("");
  await expect(page.locator("body")).not.toContainText("3704 0044");
  const schedule = page.getByRole("region", { name: "Schedule" });
  await expect(schedule.getByLabel("Payout schedule")).toHaveValue("manual");
  await schedule.getByLabel("Payout schedule").selectOption("weekly");
  await schedule.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Payout schedule: weekly.")).toBeVisible();
  await schedule.getByLabel("Payout schedule").selectOption("manual");
  await schedule.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Payout schedule: manual.")).toBeVisible();

  // Pay out: more than is available is refused beside the amount; left empty, all of it.
  await page.goto("/dashboard/payouts");
  const payOut = page.getByRole("region", { name: "Pay out now" });
  await payOut.getByLabel("Currency").selectOption("EUR");
  await payOut.getByLabel("Amount (optional)").fill("1000000.00");
  await payOut.getByRole("button", { name: "Pay out" }).click();
  // Money leaves only once confirmed: the dialog says how much and where; Cancel sends nothing.
  const confirm = page.getByRole("dialog", { name: "Pay out now?" });
  await expect(confirm).toContainText("Send €1,000,000.00 to the bank account ending 3000?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect(((await (await api("get", "/api/payouts")).json()) as { data: unknown[] }).data).toEqual([]);
  await payOut.getByRole("button", { name: "Pay out" }).click();
  await confirm.getByRole("button", { name: "Pay out now" }).click();
  await expect(payOut.getByText(/The amount field must not be greater than [\d.]+\./)).toBeVisible();
  await payOut.getByLabel("Amount (optional)").fill("");
  await payOut.getByRole("button", { name: "Pay out" }).click();
  await expect(confirm).toContainText(
    /Send all that is available, €[\d,.]+, to the bank account ending 3000\?/,
  );
  await confirm.getByRole("button", { name: "Pay out now" }).click();
  await expect(page.getByText(/Payout of €[\d,.]+ created: it arrives by \d{4}-\d{2}-\d{2}\./)).toBeVisible();
  const row = page.getByRole("row").nth(1);
  await expect(row).toContainText("pending");
  await expect(row).toContainText("•••• 3000");
  await row.getByRole("link").click();
  await expect(page).toHaveURL(/\/dashboard\/payouts\/\d+$/);
  const payoutPath = new URL(page.url()).pathname;
  const payoutId = Number(payoutPath.split("/").at(-1));
  const payout = (await (await api("get", `/api/payouts/${payoutId}`)).json()) as {
    data: { amount: string };
  };

  // Its transactions add up to it, on the page and in the CSV.
  await expect(page.getByTestId("reconciliation")).toContainText("exactly this payout’s amount");
  await expect(page.getByRole("table", { name: "Transactions in this payout" })).toContainText(
    `Payment ${paymentId}`,
  );
  const csv = await page.request.get(`${payoutPath}/export`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\n");
  expect(lines[0]).toBe(
    "id,type,source_id,payment_id,external_id,customer_id,currency,amount,fee,net,status,available_on,payout_id,created_at",
  );
  const nets = lines.slice(1).map((line) => line.split(",")[9]!);
  // Each line names its order and customer, to match the merchant's books.
  expect(
    lines
      .slice(1)
      .some((line) =>
        line.includes(`,payment,${paymentId},${paymentId},${externalId},cus_payout_csv,EUR,10.00,0.59,9.41,`),
      ),
  ).toBe(true);
  // Summed in minor units (cents), never through a float.
  const cents = (text: string) => BigInt(text.replace(".", ""));
  expect(nets.reduce((sum, net) => sum + cents(net), 0n)).toBe(cents(payout.data.amount));

  // Canceled while pending: the money is available again; paid out anew, then paid.
  await page.getByRole("button", { name: "Cancel payout" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel payout" }).click();
  await expect(page.getByText(/Payout canceled: €[\d,.]+ is available again\./)).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "canceled" })).toBeVisible();
  // A canceled payout shows the transaction that returned its money, and claims no reconciliation.
  await expect(page.getByTestId("payout-returned")).toContainText("This payout was canceled");
  await expect(page.getByRole("table", { name: "The transaction that returned this payout" })).toContainText(
    `Payout returned ${payoutId}`,
  );
  await expect(page.getByTestId("reconciliation")).not.toContainText("exactly this payout’s amount");
  await page.goto("/dashboard/payouts");
  await payOut.getByLabel("Currency").selectOption("EUR");
  await payOut.getByRole("button", { name: "Pay out" }).click();
  await confirm.getByRole("button", { name: "Pay out now" }).click();
  await expect(page.getByText(/Payout of €[\d,.]+ created/)).toBeVisible();
  const again = (await (await api("get", "/api/payouts")).json()) as { data: Array<{ id: number }> };
  const settled = await api("post", `/api/test-helpers/payouts/${again.data[0]!.id}/settle`, {});
  expect(((await settled.json()) as { data: { status: string } }).data.status).toBe("paid");
  await page.goto("/dashboard/balance");
  await expect(
    page.getByRole("definition").filter({ hasText: "available" }).filter({ hasText: "€0.00" }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Next payout" })).toContainText("Payouts are manual");
  // Released early, the money is available from now: no row still says it becomes available in days.
  await expect(page.getByRole("table", { name: "Recent balance transactions" })).not.toContainText(
    "in 2 days",
  );

  // The bank account closes: the payout to it fails, and every page that sends money asks for a new one.
  await api("put", "/api/payout-account", {
    account_holder: "Ledger GmbH",
    iban: "GB33 BUKB 2020 1555 5555 55",
  });
  const more = await api("post", "/api/payments", { amount: "20.00", currency: "EUR" });
  const moreId = Number(more.headers().location!.split("/").at(-1));
  await api("post", `/api/test-helpers/payments/${moreId}/settle`, { outcome: "completed" });
  await api("post", "/api/test-helpers/balance/release");
  const doomed = (await (await api("post", "/api/payouts", { currency: "EUR" })).json()) as {
    data: { id: number };
  };
  const failed = await api("post", `/api/test-helpers/payouts/${doomed.data.id}/settle`, {});
  expect(((await failed.json()) as { data: { status: string } }).data.status).toBe("failed");
  const warning =
    /Replace your bank account\. A payout to the account ending 5555 failed: The bank account is closed\./;
  await page.goto("/dashboard/balance");
  await expect(page.getByRole("region", { name: "Next payout" })).toContainText(warning);
  await page.screenshot({ path: test.info().outputPath("balance-account-errored.png"), fullPage: true });
  await page.goto("/dashboard/payouts");
  await expect(payOut).toContainText(warning);
  await expect(payOut.getByRole("button", { name: "Pay out" })).toHaveCount(0);
  await page.goto("/dashboard/settings/payouts");
  await expect(account).toContainText(/Payouts are paused until you save another account\./);
  await account.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
  await saveBankAccount(page, seedData.ledger.password, "Replace account", false);
  await expect(page.getByText("Payouts now go to the account ending 3000.")).toBeVisible();
  await expect(account).not.toContainText("Replace your bank account");

  // Another merchant: no such payout, no CSV.
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.252" } });
  const other = await context.newPage();
  await logInAs(other, seedData.priced);
  const foreign = await other.goto(payoutPath);
  expect(foreign?.status()).toBe(404);
  expect((await other.request.get(`${payoutPath}/export`)).status()).toBe(404);
  await other.goto("/dashboard/payouts");
  await expect(other.getByRole("heading", { level: 1 })).toHaveText("Payouts");
  await expect(other.locator("body")).not.toContainText("•••• 3000");
  await context.close();
});
