import { expect, logInAs, navLink, test } from "./fixtures";

test("a request is found on the Logs page by its X-Request-Id, with its error body", async ({
  page,
  seed,
  seedData,
}) => {
  const response = await page.request.post("/api/payments", {
    headers: { Authorization: `Bearer ${seedData.tokens.api}` },
    data: { amount: "not money" },
  });
  expect(response.status()).toBe(422);
  const requestId = response.headers()["x-request-id"]!;
  expect(requestId).toMatch(/^req_/);

  await logInAs(page, seed);
  await navLink(page, "Logs").click();
  await expect(page.getByRole("heading", { name: "Logs", level: 1 })).toBeVisible();
  await page.getByLabel("Request id").fill(requestId);
  // Written within a second or two of the request: filter until it shows.
  await expect(async () => {
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByRole("list", { name: "API requests" }).getByRole("listitem")).toHaveCount(1, {
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await expect(page).toHaveURL(new RegExp(`request_id=${requestId}`));
  const entry = page.getByRole("list", { name: "API requests" }).getByRole("listitem");
  await expect(entry).toContainText("422");
  await expect(entry).toContainText("POST");
  await entry.locator("summary").click();
  await expect(entry.getByText(requestId)).toBeVisible();
  await expect(entry.locator("pre")).toContainText("The amount field must be a number.");
  await page.screenshot({ path: "test-results/logs-request-found.png", fullPage: true });
});

test("the key filter tells keys of one name apart: hint, creation date and state", async ({ page, seed }) => {
  await logInAs(page, seed);
  // The seeded keys are the seed's Test sandbox's (its first, whose id is the account's).
  await page.goto(`/sandbox/${seed.merchant_id}/dashboard/logs`);
  const options = page.getByLabel("API key").locator("option");
  const labels = await options.allTextContents();
  const optionsNamed = (name: string) => labels.filter((label) => label.startsWith(`${name} · `));
  const shape = (name: string, state: string) =>
    new RegExp(`^${name} · pay_test_…\\w{4} · created \\d{4}-\\d{2}-\\d{2} · ${state}$`);
  // The seeded key rolled with an hour's grace and its replacement share a name.
  const rolled = optionsNamed("rolled with grace");
  expect(rolled).toHaveLength(2);
  expect(rolled[0]).toMatch(shape("rolled with grace", "active"));
  expect(rolled[1]).toMatch(shape("rolled with grace", "rolled"));
  expect(rolled[0]!.split(" · ")[1]).not.toBe(rolled[1]!.split(" · ")[1]);
  expect(optionsNamed("revoked")).toEqual([expect.stringMatching(shape("revoked", "revoked"))]);
  expect(optionsNamed("expired")).toEqual([expect.stringMatching(shape("expired", "expired"))]);
});
