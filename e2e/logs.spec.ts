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
