import type { TestProject } from "vitest/node";
import { findFreePort } from "./free-port";
import { decideTestDatabase } from "./test-database";
import { startTestServer, type SeedData } from "./test-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    serverEnv: Record<string, string | undefined>;
    data: SeedData;
  }
}

export default async function setup(project: TestProject) {
  decideTestDatabase();
  const server = await startTestServer("vitest", Number(process.env.TEST_PORT ?? findFreePort()));
  project.provide("baseUrl", server.baseUrl);
  project.provide("serverEnv", server.env);
  project.provide("data", server.data);
  return () => server.stop();
}
