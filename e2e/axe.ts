import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** How every page is looked at: light and dark at 1280 px, and a 390 px phone. */
export const VIEWS = [
  { name: "light", colorScheme: "light", width: 1280 },
  { name: "dark", colorScheme: "dark", width: 1280 },
  { name: "phone", colorScheme: "light", width: 390 },
] as const;

/**
 * axe-core on the page, run in the page itself: no page has a frame, so the default's per-frame runs merged
 * in a blank page of their own find the same and took twice as long (1.1 s a page against 0.5).
 */
export function axeOn(page: Page) {
  return new AxeBuilder({ page }).setLegacyMode();
}

/** axe-core's serious and critical WCAG 2.1 A/AA findings on the page as it is now. */
export async function seriousViolations(page: Page) {
  const results = await axeOn(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
    }));
}

/** Every axe-core finding on the page as it is now, whatever its impact (the payer's pages hold to 0). */
export async function allViolations(page: Page) {
  const results = await axeOn(page).analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
  }));
}

/** Shows the page in `view`: its colour scheme and width (the layout and the dark theme are CSS media queries). */
export async function showIn(page: Page, view: { colorScheme: "light" | "dark"; width: number }) {
  await page.emulateMedia({ colorScheme: view.colorScheme });
  await page.setViewportSize({ width: view.width, height: 900 });
}

/** Every finding on the page as it is now in each view, by view name (none: `{}`); then back to the first. */
export async function allViolationsInEveryView(page: Page) {
  const found: Record<string, Awaited<ReturnType<typeof allViolations>>> = {};
  for (const view of VIEWS) {
    await showIn(page, view);
    const violations = await allViolations(page);
    if (violations.length > 0) found[view.name] = violations;
  }
  await showIn(page, VIEWS[0]);
  return found;
}

/**
 * A new page's look: a full-page screenshot in each view (test-results/screenshots/<name>-<view>.png) and axe's
 * findings in each, which must be none; then back to the first view.
 */
export async function lookInEveryView(page: Page, name: string) {
  for (const view of VIEWS) {
    await showIn(page, view);
    await page.screenshot({ path: `test-results/screenshots/${name}-${view.name}.png`, fullPage: true });
    expect(await allViolations(page), `${name} (${view.name})`).toEqual([]);
  }
  await showIn(page, VIEWS[0]);
}
