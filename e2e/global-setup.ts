import { startMollieStandIn } from "../tests/support/processors/mollie";
import { decideTestDatabase } from "../tests/support/test-database";
import { assertNoSecretLogged, startTestServer, startWorkerProcess } from "../tests/support/test-server";

/** Starts the production build with seeded data (handed to workers via the environment). */
export default async function globalSetup() {
  decideTestDatabase();
  // Mollie's stand-in (tests/support/processors), for Settings → Processor: a live key it knows, for the specs.
  const mollie = await startMollieStandIn();
  process.env.E2E_MOLLIE_LIVE_KEY = mollie.addKey(undefined, "live");
  // No automatic settlement: QA settles payments by hand in the dashboard.
  const server = await startTestServer("e2e", Number(process.env.E2E_PORT), {
    PAYMENTS_AUTO_SETTLE_MS: "0",
    MOLLIE_API_URL: mollie.apiEndpoint,
    PROCESSOR_CA_FILE: mollie.caFile,
  });
  // On PostgreSQL webhooks are delivered by a separate worker process, as in production.
  const worker = server.env.WORKER_MODE === "off" ? await startWorkerProcess(server.env) : undefined;
  process.env.E2E_SEED_DATA = JSON.stringify(server.data);
  // Where the server keeps every mail it sends (lib/platform/mailer.ts), for the specs that read one.
  process.env.E2E_MAIL_OUTBOX = server.env.MAIL_OUTBOX_DIR;
  return async () => {
    await worker?.kill("SIGTERM");
    if (worker) assertNoSecretLogged(worker.output(), server.data);
    await server.stop();
    await mollie.close();
  };
}
