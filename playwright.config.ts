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
  // Two workers, each taking whole files in turn (the tests of a file run in order): about a quarter off the
  // run on two cores (9.6 min to 7.2 here). Specs that listen for webhooks take free ports of their own; the seed
  // account's specs run in a sandbox of their worker's own (e2e/fixtures.ts, workerSandbox).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // None by default. .ci/run allows one (E2E_RETRIES=1): a test that fails and then passes is reported as flaky
  // by name, shown again at the end of its log, instead of costing the run; one that fails twice still fails it.
  retries: Number(process.env.E2E_RETRIES ?? 0),
  reporter: [["list"]],
  // Wide: on a loaded 2-core CI machine the same tests have run twice as long as on a quiet one (the QA
  // recipe 20 s and 40 s), and beside the PgBouncer suites up to six times (a 20 s test at 2 minutes,
  // 2026-11-29); a test asserts outcomes, the timeout only ends one that is stuck.
  timeout: 240_000,
  // A retried step (toPass) and a click on something that never comes fail within their bound, naming the step,
  // instead of waiting out the test (a retry clicked a button already gone for 15 minutes, 2026-11-29).
  expect: { timeout: 20_000, toPass: { timeout: 120_000 } },
  // The second gives docs/samples/checkout.spec.ts its settings (a key, a webhook secret, its shop's port).
  globalSetup: ["./e2e/global-setup.ts", "./e2e/docs-samples-setup.ts"],
  use: {
    actionTimeout: 60_000,
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
    { name: "chromium", testIgnore: "idle-server.spec.ts", use: { ...devices["Desktop Chrome"] } },
    // Waits for the server to go idle, which it never does while another worker sends it requests: run alone,
    // after the rest.
    {
      name: "idle-server",
      testMatch: "idle-server.spec.ts",
      dependencies: ["chromium", "docs-samples"],
      use: { ...devices["Desktop Chrome"] },
    },
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
