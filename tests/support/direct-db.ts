// For suites that call domain functions in the test process: the PostgreSQL that DATABASE_URL names, or a
// PGlite of their own in a temp directory (the server holds its own).
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { decideTestDatabase } from "./test-database";
import { newPgliteDirectory } from "./test-server";

decideTestDatabase();

if (!process.env.DATABASE_URL) process.env.PGLITE_DATA_DIR = newPgliteDirectory("direct");
// The server's secret, so webhook secrets written here can be read by its workers (and the reverse).
process.env.AUTH_SECRET = inject("serverEnv").AUTH_SECRET ?? randomBytes(33).toString("base64");
process.env.ENCRYPTION_KEYS = inject("serverEnv").ENCRYPTION_KEYS ?? randomBytes(32).toString("base64");

const { getDb, migrateDatabase } = await import("@/db/client");
const { createHistoryPartitions } = await import("@/lib/platform/history-partitions");
await migrateDatabase();
// As a booting server does: rows may then be written at any time the retention keeps.
await createHistoryPartitions(getDb());

export const db = getDb();

const { createMerchantWithOwner } = await import("@/lib/accounts/accounts");

/** A merchant of the test's own (a random e-mail under its label), with its owner; its id. */
export async function newMerchant(label: string): Promise<number> {
  const account = await createMerchantWithOwner(db, {
    name: label,
    email: `${label.toLowerCase()}-${randomBytes(5).toString("hex")}@example.test`,
    password: "long enough pw",
  });
  return account.merchantId;
}
