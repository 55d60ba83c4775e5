import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * PGlite is a single-process database: two processes opening one data directory corrupt it. The first
 * process to open it writes `<dir>.lock` with its pid; any other process is refused while that pid lives.
 */
export class EmbeddedDatabaseBusyError extends Error {}

type LockHolder = { pid: number; command: string; startedAt: string };

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(lockPath: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
}

export function acquireEmbeddedDatabaseLock(dataDir: string): void {
  const absoluteDir = path.resolve(dataDir);
  const lockPath = `${absoluteDir}.lock`;
  mkdirSync(path.dirname(absoluteDir), { recursive: true });

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      const holder: LockHolder = {
        pid: process.pid,
        command: process.argv.slice(1).join(" "),
        startedAt: new Date().toISOString(),
      };
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      process.once("exit", () => releaseLock(lockPath));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockPath);
    if (holder?.pid === process.pid) return;
    if (holder && isProcessAlive(holder.pid)) {
      throw new EmbeddedDatabaseBusyError(
        [
          `The embedded database at ${absoluteDir} is in use by another process:`,
          `  pid ${holder.pid}, started ${holder.startedAt}: ${holder.command}`,
          "PGlite allows one process at a time, so this one did not open it (your data is untouched).",
          "Stop that process first (e.g. the dev server) and run this again, or set DATABASE_URL to use",
          `PostgreSQL, which any number of processes can share. If no such process exists, delete ${lockPath}.`,
        ].join("\n"),
      );
    }
    // The holder died without cleaning up: the lock is stale.
    try {
      unlinkSync(lockPath);
    } catch {
      // Another process removed it first; try again.
    }
  }
  throw new EmbeddedDatabaseBusyError(`Could not lock the embedded database at ${absoluteDir}; try again.`);
}

function releaseLock(lockPath: string): void {
  if (readHolder(lockPath)?.pid !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}
