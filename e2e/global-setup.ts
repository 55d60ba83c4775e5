import { startTestServer } from "../tests/support/test-server";

/** Starts the production build with a seeded merchant (handed to workers via the environment). */
export default async function globalSetup() {
  const server = await startTestServer("e2e", Number(process.env.E2E_PORT));
  process.env.E2E_SEED = JSON.stringify(server.data.seed);
  return () => server.stop();
}
