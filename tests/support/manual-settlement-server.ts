import { afterAll, beforeAll, inject } from "vitest";
import { separateDatabase } from "./test-database";
import { startTestServer, type TestServer } from "./test-server";
import type { WebhookReceiver } from "./webhook-receiver";

/**
 * A server of a test file's own on which nothing settles by itself (PAYMENTS_AUTO_SETTLE_MS=0: the test helpers
 * decide) and a payment pending 4 s expires, with the worker inside. On PostgreSQL it has a database of its own:
 * its settler would expire the other suites' pending payments. `receiver` takes the seeded /hooks endpoint.
 * `env` adds to or overrides the server's environment.
 */
export function startManualSettlementServer(
  name: string,
  portOffset: number,
  receiver: WebhookReceiver,
  started: (server: TestServer) => void,
  env: Record<string, string> = {},
): void {
  let server: TestServer | undefined;
  let database: Awaited<ReturnType<typeof separateDatabase>> | undefined;
  beforeAll(async () => {
    const port = Number(new URL(inject("baseUrl")).port) + portOffset;
    database = await separateDatabase(name);
    server = await startTestServer(name, port, {
      PAYMENTS_AUTO_SETTLE_MS: "0",
      PAYMENTS_PENDING_EXPIRE_AFTER: "4s",
      WORKER_MODE: "inline",
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...env,
    });
    receiver.expectSecret("/hooks", server.data.hooks.secret);
    await receiver.listen(Number(server.env.TEST_RECEIVER_PORT));
    started(server);
  });
  afterAll(async () => {
    await server?.stop();
    await receiver.close();
    await database?.drop();
  });
}
