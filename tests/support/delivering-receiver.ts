// A webhook receiver for a suite, with what delivers to it: the PostgreSQL suites' server sends nothing itself
// (WORKER_MODE=off), so there a worker process does, as in production; on PGlite the server's own worker sends.
import { afterAll, beforeAll } from "vitest";
import { startWorkerProcess, type WorkerProcess } from "./test-server";
import { WebhookReceiver } from "./webhook-receiver";

/**
 * Listens on TEST_RECEIVER_PORT + `portOffset` (each suite its own) before the suite's tests, and stops both after.
 * Call at the top of a file or a `describe`.
 */
export function deliveringReceiver(serverEnv: Record<string, string | undefined>, portOffset: number) {
  const receiver = new WebhookReceiver();
  const port = Number(serverEnv.TEST_RECEIVER_PORT) + portOffset;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    await receiver.listen(port);
    if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
  });
  afterAll(async () => {
    await worker?.kill("SIGTERM");
    await receiver.close();
  });
  return { receiver, port, worker: () => worker };
}
