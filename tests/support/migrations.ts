// Migrations as a test runs them on a database of its own: a copy of the migrations folder cut at one
// migration, and a fresh database (PGlite in memory, or one beside DATABASE_URL's) to migrate and query. The
// whole folder is followed by db/functions, as the app migrates; a cut one is not (today's functions may need
// what a later migration makes).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { Database } from "@/db/client";
import { functionsFolder } from "@/db/config";
import { applyFunctionFiles, type RunSql } from "@/db/function-files";
import { finishRollupKeys } from "@/db/rollup-keys";
import { separateDatabase } from "./test-database";

export const migrations = path.join(process.cwd(), "db", "migrations");

type Journal = { entries: Array<{ idx: number; tag: string }> };

/** A copy of the migrations folder whose journal ends at `lastIdx`. */
export function migrationsUpTo(lastIdx: number): string {
  const folder = path.join(mkdtempSync(path.join(tmpdir(), "payments-migrations-")), "migrations");
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(migrations, "meta", "_journal.json"), "utf8")) as Journal;
  const entries = journal.entries.filter((entry) => entry.idx <= lastIdx);
  for (const { tag } of entries)
    copyFileSync(path.join(migrations, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

export type FreshDatabase = {
  /** Its URL, on PostgreSQL (for a process of its own to open it); none on PGlite, which is this process's. */
  url?: string;
  /** drizzle over the same connection, for domain code that takes a Database. */
  db: Database;
  query: <Row = Record<string, unknown>>(text: string) => Promise<Row[]>;
  /**
   * The migrations in `folder`, then what follows them as the app migrates: the function files when `folder`
   * is the whole of them (db/function-files.ts), and the rollup key (db/rollup-keys.ts).
   */
  migrate: (folder: string) => Promise<void>;
  /** The changed files of a db/functions folder (db/function-files.ts); returns them. */
  applyFunctions: (folder?: string) => Promise<string[]>;
  close: () => Promise<void>;
};

/** A database of its own: PGlite in memory, or one beside DATABASE_URL's on the same server. */
export async function freshDatabase(label: string): Promise<FreshDatabase> {
  const separate = await separateDatabase(label);
  if (!separate.url) {
    const client = new PGlite();
    const applyFunctions = (folder = functionsFolder) =>
      applyFunctionFiles(
        (work) => client.transaction((tx) => work(async (text) => (await tx.exec(text)).at(-1)?.rows ?? [])),
        folder,
      );
    return {
      db: drizzlePglite({ client }) as unknown as Database,
      query: async <Row>(text: string) => (await client.query<Row>(text)).rows,
      async migrate(folder) {
        await migratePglite(drizzlePglite({ client }), { migrationsFolder: folder });
        if (folder === migrations) await applyFunctions();
        await finishRollupKeys(async (statement) => (await client.query(statement)).rows, {
          concurrently: false,
        });
      },
      applyFunctions,
      close: () => client.close(),
    };
  }
  const client = postgres(separate.url, { max: 1, onnotice: () => {} });
  const applyFunctions = (folder = functionsFolder) =>
    applyFunctionFiles(
      <T>(work: (run: RunSql) => Promise<T>) =>
        client.begin((tx) => work((text) => tx.unsafe(text).simple())) as Promise<T>,
      folder,
    );
  return {
    url: separate.url,
    db: drizzlePostgres({ client }) as unknown as Database,
    query: async <Row>(text: string) => (await client.unsafe(text)) as unknown as Row[],
    async migrate(folder) {
      await migratePostgres(drizzlePostgres({ client }), { migrationsFolder: folder });
      if (folder === migrations) await applyFunctions();
      await finishRollupKeys((statement) => client.unsafe(statement), { concurrently: true });
    },
    applyFunctions,
    close: async () => {
      await client.end();
      await separate.drop();
    },
  };
}
