import "server-only";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder, type DatabaseConfig } from "./config";
import type { Connection, Database } from "./database-types";
import { acquireEmbeddedDatabaseLock } from "./embedded-lock";
import { applyFunctionFiles } from "./function-files";
import { finishRollupKeys } from "./rollup-keys";
import * as schema from "./schema";
import { captureFor, capturingLogger } from "./statement-capture";

/** The embedded database (PGlite, in this process): db/client.ts loads this module only without DATABASE_URL. */
export function connectPglite(config: DatabaseConfig): Connection {
  const dataDir = config.PGLITE_DATA_DIR;
  acquireEmbeddedDatabaseLock(dataDir);
  const client = new PGlite(path.resolve(dataDir));
  const record = captureFor(config);
  const db = drizzle({
    client,
    schema,
    logger: record && capturingLogger(record),
  }) as unknown as Database;
  return {
    db,
    // One connection in-process: nothing to queue behind.
    backgroundDb: db,
    async migrate() {
      await migrate(drizzle({ client }), { migrationsFolder });
      const applied = await applyFunctionFiles((work) =>
        client.transaction((tx) => work(async (text) => (await tx.exec(text)).at(-1)?.rows ?? [])),
      );
      await finishRollupKeys(async (statement) => (await client.query(statement)).rows, {
        concurrently: false,
      });
      return applied;
    },
    async listen(channel, onNotify) {
      await client.listen(channel, () => onNotify());
    },
    // One in-process database: nothing to open ahead.
    warm: async () => {},
    close: () => client.close(),
  };
}
