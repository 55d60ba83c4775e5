// CPU time from /proc, per request: on this shared 2-core machine a server's requests per second move by
// ±20% from round to round, while the CPU each request costs moves much less, and says which process the
// difference between two servers is in.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second, the unit of /proc/<pid>/stat's times (100 on Linux when getconf cannot tell). */
function ticksPerSecond(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}
const TICKS_PER_SECOND = ticksPerSecond();

/**
 * A process's user + system CPU time so far, in microseconds (0 once it has gone); with `reaped`, that of its
 * children that have exited too (a PostgreSQL's backends for connections closed since).
 */
function processCpuMicros(pid: number, reaped = false): number {
  try {
    // The fields after the command name, which is in parentheses and may contain spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const own = Number(fields[11]) + Number(fields[12]);
    const children = reaped ? Number(fields[13]) + Number(fields[14]) : 0;
    return ((own + children) * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A process's children (the server processes a `npm start` primary forks). */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** A server's CPU time so far, its worker processes (WEB_CONCURRENCY > 1) included. */
export function serverCpuMicros(pid: number): number {
  return [pid, ...childPids(pid)].reduce((sum, each) => sum + processCpuMicros(each), 0);
}

/**
 * The CPU time of every PostgreSQL and PgBouncer process on this machine so far. A process that exits
 * between two readings takes its time with it (the pools' connections live for the whole round); without
 * /proc (not Linux) it is 0.
 */
export function databaseCpuMicros(): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
      if (command === "postgres" || command === "pgbouncer") total += processCpuMicros(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return total;
}

/**
 * The CPU time so far of one local PostgreSQL cluster (Debian's layout: `main`, or the `standby` that
 * scripts/ci-standby.sh makes): its postmaster and every backend, walsender and helper it forked.
 */
export function clusterCpuMicros(cluster: string): number {
  const version = readdirSync("/etc/postgresql")
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  return postmasterCpuMicros(`/var/lib/postgresql/${version}/${cluster}`);
}

/**
 * The CPU time so far of the PostgreSQL server whose data directory is `dataDir`: the postmaster, every process
 * it forked, and those that have exited (a connection's backend ends with it).
 */
export function postmasterCpuMicros(dataDir: string): number {
  const postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
  return childPids(postmaster).reduce(
    (sum, pid) => sum + processCpuMicros(pid),
    processCpuMicros(postmaster, true),
  );
}
