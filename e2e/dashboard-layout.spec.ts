import type { Page } from "@playwright/test";
import { createPaymentViaApi, expect, logInAs, navLink, test } from "./fixtures";

/** The page's scroll height, and the bottom of what is drawn inside <main>, in page coordinates. */
const pageExtent = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector("main")!;
    const aside = document.querySelector("aside")!;
    return {
      scrollHeight: document.documentElement.scrollHeight,
      contentBottom: main.getBoundingClientRect().bottom + window.scrollY,
      asideBottom: aside.getBoundingClientRect().bottom + window.scrollY,
    };
  });

test("the Overview ends where its content does, with 90 days charted; the sidebar runs its full height", async ({
  page,
  seed,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await logInAs(page, seed);
  await page.goto("/dashboard?range=90");
  await expect(page.getByText("Completed volume per day, last 90 days (UTC)")).toBeVisible();
  // The chart's numbers are still there for screen readers, all 90 days.
  await expect(
    page
      .getByRole("table", { name: "Completed payments and refunds per day, last 90 days (UTC)" })
      .getByRole("row"),
  ).toHaveCount(91);
  const { scrollHeight, contentBottom, asideBottom } = await pageExtent(page);
  // Before the fix the screen-reader table stretched the page to about 2,800 px below 900 px of content.
  expect(scrollHeight).toBeLessThanOrEqual(Math.max(800, contentBottom + 4));
  expect(asideBottom).toBeGreaterThanOrEqual(scrollHeight - 1);
});

for (const view of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
]) {
  test(`the navigation stays in view at the bottom of a long page (${view.name})`, async ({ page, seed }) => {
    await page.setViewportSize({ width: view.width, height: view.height });
    await logInAs(page, seed);
    await page.goto("/dashboard/developers");
    await expect(page.getByRole("heading", { name: "Errors" })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(view.height);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeInViewport({ ratio: 1 });
    await expect(navLink(page, "Developers")).toBeInViewport({ ratio: 1 });
    // Still a working link from down there.
    await navLink(page, "Developers").focus();
    await expect(navLink(page, "Developers")).toBeInViewport({ ratio: 1 });
    await navLink(page, "Logs").click();
    await expect(page).toHaveURL(/\/dashboard\/logs$/);
  });
}

test("pages: First and Last in one click each, and the page number reads right", async ({
  page,
  seed,
  seedData,
}) => {
  const prefix = `pager_${Date.now()}_`;
  for (let index = 1; index <= 23; index++)
    await createPaymentViaApi(page.request, seedData.tokens.api, {
      amount: index,
      external_id: `${prefix}${String(index).padStart(2, "0")}`,
    });
  await logInAs(page, seed);
  await page.goto(`/dashboard/payments?pageSize=10&q=${prefix}`);
  const pager = page.getByRole("navigation", { name: "Pagination" });
  const rows = page.getByRole("table").getByRole("row");
  await expect(pager.getByText("Page 1 of 3")).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("23 payments")).toBeVisible();
  // Nothing before the first page: First and Previous are there but lead nowhere.
  for (const name of ["First", "Previous"])
    await expect(pager.getByRole("link", { name })).toHaveAttribute("aria-disabled", "true");

  await pager.getByRole("link", { name: "Last" }).click();
  await expect(page).toHaveURL(/[?&]page=3(&|$)/);
  await expect(pager.getByText("Page 3 of 3")).toBeVisible();
  await expect(rows).toHaveCount(1 + 3);
  for (const name of ["Next", "Last"])
    await expect(pager.getByRole("link", { name })).toHaveAttribute("aria-disabled", "true");

  await pager.getByRole("link", { name: "Previous" }).click();
  await expect(pager.getByText("Page 2 of 3")).toBeVisible();
  await expect(rows).toHaveCount(1 + 10);

  await pager.getByRole("link", { name: "First" }).click();
  await expect(page).not.toHaveURL(/[?&]page=/);
  await expect(pager.getByText("Page 1 of 3")).toBeVisible();
  await expect(rows).toHaveCount(1 + 10);
});
