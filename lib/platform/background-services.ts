import "server-only";
import { onCitusWorker } from "@/db/citus";
import { closeDatabase, getDb, migrateDatabase } from "@/db/client";
import type { BackgroundService } from "./background-service";
import { checkStoredSecrets } from "./encryption";
import { checkWebServerEnv, getEnv } from "./env";
import { createHistoryPartitions } from "./history-partitions";
import { logger } from "./logger";

/** The services started, by name, with their stop functions: a stop that overruns names what it waits on. */
const running: Array<{ name: string; stop: () => Promise<void> }> = [];
const stopping = new Set<string>();

/**
 * Boots a process that serves the platform: validates configuration, applies migrations, creates the history
 * partitions due (history-partitions.ts), checks that every stored secret's key is configured, then starts the
 * background services. A bad environment or a busy embedded database stops the process with a readable
 * message instead of a stack trace.
 */
export async function startPlatform(
  services: BackgroundService[] = [],
  role: "web" | "worker" = "worker",
): Promise<void> {
  try {
    getEnv();
    if (role === "web") checkWebServerEnv();
    await migrateDatabase();
    if (onCitusWorker()) {
      // Partitions are DDL, which Citus takes only on the coordinator; its processes run the services too.
      logger.info(
        "On a Citus worker: serving requests; history partitions and background services are the coordinator's",
      );
      await checkStoredSecrets(getDb());
      return;
    }
    // Every process, API-only ones too (WORKER_MODE=off), so a database left alone for weeks gets today's
    // partitions. Not fatal: the writers create a missing partition themselves, and the worker retries hourly.
    await createHistoryPartitions(getDb()).catch((error: unknown) =>
      logger.warn({ err: error }, "History partitions not created at start"),
    );
    await checkStoredSecrets(getDb());
    for (const start of services) running.push({ name: start.name || "a service", stop: await start() });
  } catch (error) {
    console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

export async function stopPlatform(): Promise<void> {
  for (const { name, stop } of running.splice(0).reverse()) {
    stopping.add(name);
    await stop();
    stopping.delete(name);
  }
  stopping.add("the database's connections");
  await closeDatabase();
}

/**
 * On SIGTERM or SIGINT: `beforeStop` (a server stops taking requests and lets those under way finish), then the
 * background services stop (finishing sends under way), the database closes and the process exits.
 */
export function stopPlatformOnSignals(beforeStop?: () => void | Promise<void>): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // A stop that hangs (a statement that never returns, a peer that never answers) must not keep the process
      // from exiting: what it leaves is leased or uncommitted, and another process takes it up.
      const timeout = getEnv().SHUTDOWN_TIMEOUT_SECONDS;
      setTimeout(() => {
        logger.error(
          { stopping: [...stopping] },
          `Stop not finished after ${timeout} s (SHUTDOWN_TIMEOUT_SECONDS): exiting with the work under way left`,
        );
        process.exit(1);
      }, timeout * 1000).unref();
      stopping.add("the requests under way");
      void Promise.resolve()
        .then(beforeStop)
        .then(() => stopping.delete("the requests under way"))
        .then(stopPlatform)
        .finally(() => process.exit(0));
    });
  }
}
