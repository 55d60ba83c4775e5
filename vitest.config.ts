import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The tenant-scoping check reads the statements every other file made the app send: it runs last. */
class TenantScopingLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (file: TestSpecification) => (file.moduleId.endsWith("tenant-scoping.test.ts") ? 1 : 0);
    return sorted.sort((a, b) => last(a) - last(b));
  }
}

export default defineConfig({
  resolve: {
    // Domain modules import "server-only"; tests run on the server side of that line.
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    // Wide: a loaded 2-core machine has run the suite at twice its usual time (the longest test 34 s);
    // tests assert outcomes, and the timeout only ends one that is stuck.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: files run one after another against the one server.
    fileParallelism: false,
    // The domain functions the tests call in their own process: a replaced payout account holds nothing, as on
    // the test servers (tests/support/test-server.ts).
    env: { PAYOUT_ACCOUNT_CHANGE_HOLD: "0" },
    sequence: { sequencer: TenantScopingLast },
  },
});
