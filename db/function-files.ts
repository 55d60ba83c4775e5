// The SQL functions as source (DESIGN.md, "Database"): db/functions/ holds each function's current
// `CREATE OR REPLACE` text, a file per domain. Every way the schema is migrated calls this right after the
// migrations (db/client.ts, db/embedded-connection.ts, tests): the files whose checksum differs from the one
// recorded are applied, in FUNCTION_FILES's order, in one transaction with their new checksums, so a file
// that fails changes nothing. Flyway's repeatable migrations work so. On PostgreSQL the caller holds the
// migration lock: two processes migrating at once apply a change once.
//
// The trap (docs/development.md, "SQL functions"): a migration runs before this, so one that calls a function
// sees the text of the last migration that defined it, or no function at all if only db/functions has it.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { functionsFolder } from "./config";

/**
 * In the order they are applied: a SQL-language function's body is checked when it is created, so a file
 * comes after those whose functions it calls that way (minor_units first). PL/pgSQL bodies are checked when run.
 */
export const FUNCTION_FILES = [
  "clock.sql",
  "money.sql",
  "outbox.sql",
  "idempotency.sql",
  "ledger.sql",
  "payments.sql",
  "refunds.sql",
  "payouts.sql",
  "disputes.sql",
  "checkout.sql",
  "history-partitions.sql",
  "security.sql",
];

/**
 * The checksums, beside drizzle's own bookkeeping and outside `public`: not the schema's, and on Citus kept on
 * the coordinator (db/citus.ts distributes `public`'s tables only).
 */
const CHECKSUMS = "drizzle.function_files";

/** Sends SQL text (one statement or several, no parameters) in the transaction; returns a statement's rows. */
export type RunSql = (text: string) => Promise<Array<Record<string, unknown>>>;

/** Runs `work` in one transaction, rolled back if it throws. */
export type InTransaction = <T>(work: (run: RunSql) => Promise<T>) => Promise<T>;

export class FunctionFileError extends Error {}

type FunctionFile = { file: string; text: string; checksum: string };

function readFunctionFiles(folder: string): FunctionFile[] {
  const unlisted = readdirSync(folder).filter(
    (name) => name.endsWith(".sql") && !FUNCTION_FILES.includes(name),
  );
  if (unlisted.length > 0)
    throw new FunctionFileError(
      `${unlisted.map((name) => `db/functions/${name}`).join(", ")}: not in FUNCTION_FILES (db/function-files.ts), which orders them`,
    );
  return FUNCTION_FILES.map((file) => {
    const text = readFileSync(path.join(folder, file), "utf8");
    return { file, text, checksum: createHash("sha256").update(text).digest("hex") };
  });
}

/** Where PostgreSQL put its cursor, as a line of the file (none for an error inside a PL/pgSQL body). */
function lineOf(text: string, error: unknown): string {
  const position = Number((error as { position?: string | number }).position);
  if (!(position > 0)) return "";
  return ` (line ${text.slice(0, position - 1).split("\n").length})`;
}

/** Applies the changed files of `folder`; returns their names (none when every checksum matched). */
export async function applyFunctionFiles(
  inTransaction: InTransaction,
  folder: string = functionsFolder,
): Promise<string[]> {
  const files = readFunctionFiles(folder);
  return inTransaction(async (run) => {
    await run(
      `create schema if not exists drizzle;
       create table if not exists ${CHECKSUMS} (file text primary key, checksum text not null,
         applied_at timestamptz not null default now())`,
    );
    const recorded = new Map(
      (await run(`select file, checksum from ${CHECKSUMS}`)).map((row) => [row.file, row.checksum]),
    );
    const changed = files.filter(({ file, checksum }) => recorded.get(file) !== checksum);
    for (const { file, text, checksum } of changed) {
      try {
        await run(text);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new FunctionFileError(`db/functions/${file}${lineOf(text, error)}: ${message}`, {
          cause: error,
        });
      }
      // File names are FUNCTION_FILES's and checksums hex: nothing here needs quoting.
      await run(
        `insert into ${CHECKSUMS} (file, checksum) values ('${file}', '${checksum}')
         on conflict (file) do update set checksum = excluded.checksum, applied_at = now()`,
      );
    }
    // A file renamed or removed: its row goes (its functions stay until a migration drops them).
    await run(
      `delete from ${CHECKSUMS} where file <> all(array[${FUNCTION_FILES.map((f) => `'${f}'`).join(", ")}])`,
    );
    return changed.map(({ file }) => file);
  });
}
