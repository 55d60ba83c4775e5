// Which database the tests may use, decided once per run after the .env files load (as the servers the
// harness starts will load them): PGlite in a temp directory, or a PostgreSQL that is local and named for tests.
// A DATABASE_URL meant for development (`.env.local`) is refused, never written into.
import nextEnv from "@next/env";
import { databaseUrlParts, withDatabaseName, type DatabaseUrlParts } from "@/db/url";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1", ""]);
const TEST_NAME = /(^|[_-])(test|tests|ci)([_-]|$)|test/i;

/** Why a DATABASE_URL must not be used by the tests, or null when it may. */
export function testDatabaseProblem(url: string): string | null {
  let parsed: DatabaseUrlParts;
  try {
    parsed = databaseUrlParts(url);
  } catch {
    return "it is not a URL";
  }
  // A Unix socket (postgres://user@/db?host=/var/run/postgresql) is local too; so is a formation on local ports.
  const socket = parsed.searchParams.get("host")?.startsWith("/") ?? false;
  const remote = parsed.hostnames.find((hostname) => !LOCAL_HOSTS.has(hostname));
  if (remote !== undefined && !socket)
    return `its host ${remote} is not this machine (127.0.0.1, localhost or ::1)`;
  const name = parsed.database;
  if (!TEST_NAME.test(name))
    return `its database "${name}" is not named for tests (the name must contain "test" or "ci", e.g. payments_test)`;
  return null;
}

/** Loads the .env files as the production servers will, then refuses any database the tests must not touch. */
export function decideTestDatabase(root = process.cwd()): void {
  if (process.env.TEST_DATABASE_DECIDED) return;
  // The servers run in production mode, so they read .env.production.local, .env.local, .env.production, .env.
  const env = process.env as Record<string, string | undefined>;
  const mode = env.NODE_ENV;
  env.NODE_ENV = "production";
  nextEnv.loadEnvConfig(root, false, { info: () => {}, error: console.error }, true);
  env.NODE_ENV = mode;
  const url = process.env.DATABASE_URL;
  const problem = url ? testDatabaseProblem(url) : null;
  if (problem)
    throw new Error(
      `The tests refuse DATABASE_URL (from the environment or a .env file): ${problem}. ` +
        "Run them on PGlite (no DATABASE_URL) or point DATABASE_URL at a local database named for tests.",
    );
  process.env.TEST_DATABASE_DECIDED = url ? "postgres" : "pglite";
}

/**
 * A database of its own beside DATABASE_URL's (same server, its name plus `_label`), for a test server whose
 * background work (an inline settler that expires payments) must not reach the shared one; none on PGlite,
 * where every server has its own directory already. Works through PgBouncer too (one statement each).
 */
export async function separateDatabase(label: string): Promise<{ url?: string; drop(): Promise<void> }> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return { drop: () => Promise.resolve() };
  const { default: postgres } = await import("postgres");
  const name = `${databaseUrlParts(shared).database}_${label}`;
  const admin = postgres(shared, { max: 1, prepare: false, onnotice: () => {} });
  // On a Citus coordinator the database is made on every node too, and registered as a cluster of its own.
  const workers = await admin<Array<{ node_name: string; node_port: number }>>`
    select node_name, node_port from citus_get_active_worker_nodes()`.catch(() => []);
  const onEachWorker = async (statement: string) => {
    for (const { node_name, node_port } of workers) {
      const worker = postgres(shared, { host: node_name, port: node_port, max: 1, onnotice: () => {} });
      await worker.unsafe(statement).finally(() => worker.end());
    }
  };
  for (const statement of [`drop database if exists "${name}" with (force)`, `create database "${name}"`]) {
    await admin.unsafe(statement);
    await onEachWorker(statement);
  }
  const url = withDatabaseName(shared, name);
  if (workers.length > 0) {
    for (const { node_name, node_port } of workers) {
      const worker = postgres(url, { host: node_name, port: node_port, max: 1, onnotice: () => {} });
      await worker`create extension citus`.finally(() => worker.end());
    }
    const coordinator = postgres(url, { max: 1, onnotice: () => {} });
    const { hostname, port } = new URL(shared);
    await coordinator`create extension citus`;
    await coordinator`select citus_set_coordinator_host(${hostname}, ${Number(port || 5432)})`;
    for (const { node_name, node_port } of workers)
      await coordinator`select citus_add_node(${node_name}, ${node_port})`;
    await coordinator.end();
  }
  return {
    url,
    async drop() {
      const statement = `drop database if exists "${name}" with (force)`;
      await admin.unsafe(statement);
      await onEachWorker(statement);
      await admin.end();
    },
  };
}
