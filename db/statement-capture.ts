import { appendFileSync, mkdirSync } from "node:fs";
import { findSourceMap } from "node:module";
import path from "node:path";
import type { Logger } from "drizzle-orm";

/**
 * Opt-in record of the SQL this process sends (DATABASE_STATEMENT_CAPTURE names a directory), for the
 * tenant-scoping check (tests/integration/tenant-scoping.test.ts). db/client.ts decides once, when it
 * connects, whether to wrap anything: with the setting unset no statement does any extra work.
 */

/** One line of a capture file: a distinct statement text and the app's frames that first sent it. */
export type CapturedStatement = { sql: string; callers: string[] };

const root = process.cwd();
// Frames that say nothing about who asked: the database plumbing and the libraries under it.
const PLUMBING =
  /node_modules|node:|\/db\/(client|embedded-connection)\.ts|\/db\/statement(-capture)?\.ts|<anonymous>/;

/**
 * Where a frame of the compiled server (dist/server, run with --enable-source-maps) was written, read from its
 * source map: Next.js, loaded in the same process on the embedded database, formats stacks itself, so they
 * keep the compiled file's name. Frames of TypeScript run under tsx are already where they were written.
 */
function originalPosition(file: string, line: number, column: number): { file: string; line: number } {
  const entry = findSourceMap(file)?.findEntry(line - 1, column - 1);
  if (!entry || !("originalSource" in entry)) return { file, line };
  return { file: entry.originalSource, line: entry.originalLine + 1 };
}

/**
 * The first few frames of the app's own code, as `function (file:line)` relative to the repository. None when
 * a drizzle query builder was awaited directly: `await` calls its `then` from a microtask, below every caller.
 */
function appCallers(): string[] {
  // drizzle's and the drivers' frames alone fill the default 10.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const frames = (new Error().stack ?? "").split("\n").slice(1);
  Error.stackTraceLimit = limit;
  const callers: string[] = [];
  for (const frame of frames) {
    const match = /at (?:async )?(?:(\S+) \()?(.*?):(\d+):(\d+)\)?$/.exec(frame.trim());
    if (!match) continue;
    const [, name = "", compiled = "", line = "0", column = "0"] = match;
    const written = originalPosition(compiled.replace(/^file:\/\//, ""), Number(line), Number(column));
    const file = written.file.replace(/^file:\/\//, "");
    if (PLUMBING.test(file) || PLUMBING.test(name)) continue;
    const where = `${path.relative(root, file)}:${written.line}`;
    callers.push(name ? `${name} (${where})` : where);
    if (callers.length === 4) break;
  }
  return callers;
}

export type StatementRecorder = (text: string) => void;

/** Appends each statement text the first time this process sends it to `<directory>/<pid>.jsonl`. */
export function statementRecorder(directory: string): StatementRecorder {
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${process.pid}.jsonl`);
  const seen = new Set<string>();
  return (text) => {
    if (seen.has(text)) return;
    seen.add(text);
    const line: CapturedStatement = { sql: text, callers: appCallers() };
    // Synchronous and one line per write (O_APPEND), so a process that exits at once loses nothing.
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
}

/** drizzle's logger hook: called with every statement drizzle sends, on either driver. */
export function capturingLogger(record: StatementRecorder): Logger {
  return { logQuery: (query) => record(query) };
}

/** The statement recorder when DATABASE_STATEMENT_CAPTURE is set (tests only), chosen once per connection. */
export function captureFor(config: {
  DATABASE_STATEMENT_CAPTURE?: string | undefined;
}): StatementRecorder | undefined {
  return config.DATABASE_STATEMENT_CAPTURE ? statementRecorder(config.DATABASE_STATEMENT_CAPTURE) : undefined;
}
