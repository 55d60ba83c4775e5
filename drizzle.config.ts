import { defineConfig } from "drizzle-kit";
import { acquireEmbeddedDatabaseLock } from "./db/embedded-lock";

const databaseUrl = process.env.DATABASE_URL;
const dataDir = process.env.PGLITE_DATA_DIR ?? ".data/pglite";
// `generate` and `check` only read the schema; anything else opens the database, and PGlite allows one
// process at a time, so take the same lock the server takes.
const opensDatabase = !process.argv.some((arg) => arg === "generate" || arg === "check");
if (!databaseUrl && opensDatabase) acquireEmbeddedDatabaseLock(dataDir);

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  casing: "snake_case",
  ...(databaseUrl
    ? { dbCredentials: { url: databaseUrl } }
    : { driver: "pglite", dbCredentials: { url: dataDir } }),
});
