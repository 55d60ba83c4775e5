import { afterAll, beforeAll, inject } from "vitest";
import { callApi } from "./api-client";
import { separateDatabase } from "./test-database";
import { startTestServer, type SeedData, type TestServer } from "./test-server";
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

/**
 * A test file's manual-settlement server (startManualSettlementServer) with what its tests reach for: the
 * server and the seeded tokens once it has started, and `as(name)`, a caller of the API with that token.
 */
export function manualSettlementSuite(
  name: string,
  portOffset: number,
  receiver: WebhookReceiver,
  env: Record<string, string> = {},
) {
  let started: TestServer | undefined;
  startManualSettlementServer(name, portOffset, receiver, (server) => (started = server), env);
  const suite = {
    get server(): TestServer {
      if (!started) throw new Error(`The ${name} server has not started yet.`);
      return started;
    },
    get tokens(): SeedData["tokens"] {
      return suite.server.data.tokens;
    },
    /** Calls the API with the seeded token `token`. */
    as:
      (token: keyof SeedData["tokens"]) =>
      (path: string, request: Parameters<typeof callApi>[2] = {}) =>
        callApi(suite.server.baseUrl, path, { ...request, token: suite.tokens[token] }),
  };
  return suite;
}
