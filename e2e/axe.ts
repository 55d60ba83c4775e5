import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** How every page is looked at: light and dark at 1280 px, and a 390 px phone. */
export const VIEWS = [
  { name: "light", colorScheme: "light", width: 1280 },
  { name: "dark", colorScheme: "dark", width: 1280 },
  { name: "phone", colorScheme: "light", width: 390 },
] as const;

/** axe-core's serious and critical WCAG 2.1 A/AA findings on the page as it is now. */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
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
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
  }));
}
