import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { findFreePort } from "./free-port";
import { decideTestDatabase } from "./test-database";
import { makePgliteTemplate, startTestServer, type SeedData } from "./test-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    serverEnv: Record<string, string | undefined>;
    data: SeedData;
    /** Where every process of the run records the statements it sends (tenant-scoping.test.ts reads them). */
    statementCaptureDir: string;
  }
}

export default async function setup(project: TestProject) {
  decideTestDatabase();
  // The processes tests/support/test-server.ts starts (seed, servers, workers, admin CLI) record what they
  // send; the test processes' own statements (rows counted to assert on) are not the app's.
  const captureDir = mkdtempSync(path.join(tmpdir(), "payments-statements-"));
  process.env.TEST_STATEMENT_CAPTURE = captureDir;
  // On PGlite every suite's database starts as a copy of one migrated here (test-server.ts).
  const template = process.env.DATABASE_URL ? undefined : makePgliteTemplate();
  if (template) process.env.TEST_PGLITE_TEMPLATE = template;
  const server = await startTestServer("vitest", Number(process.env.TEST_PORT ?? findFreePort()));
  project.provide("baseUrl", server.baseUrl);
  project.provide("serverEnv", server.env);
  project.provide("data", server.data);
  project.provide("statementCaptureDir", captureDir);
  return async () => {
    await server.stop();
    rmSync(captureDir, { recursive: true, force: true });
    if (template) rmSync(path.dirname(template), { recursive: true, force: true });
  };
}
