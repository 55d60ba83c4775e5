import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { findFreePort } from "./tests/support/free-port";

// Chosen once in the main process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(findFreePort());
const port = Number(process.env.E2E_PORT);
// Debian's Chromium where installed (this machine and CI cannot download Playwright's); Playwright's own
// browser everywhere else.
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate) =>
  existsSync(candidate),
);

export default defineConfig({
  testDir: "e2e",
  // Its own folder, which it empties at start: test servers running beside it (CI) keep their logs in test-results/.
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  // Wide: on a loaded 2-core CI machine the same tests have run twice as long as on a quiet one (the QA
  // recipe 20 s and 40 s); a test asserts outcomes, the timeout only ends one that is stuck.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // The second gives docs/samples/checkout.spec.ts its settings (a key, a webhook secret, its shop's port).
  globalSetup: ["./e2e/global-setup.ts", "./e2e/docs-samples-setup.ts"],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? systemChromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    },
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"] } },
    // The Playwright sample docs/checkout.md shows, run from the very file it includes
    // (scripts/check-doc-samples.mjs holds the two to each other).
    {
      name: "docs-samples",
      testDir: "docs/samples",
      testMatch: "*.spec.ts",
      use: { ...devices["Desktop Chrome"] },
    },
  ],
});
