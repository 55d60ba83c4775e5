/** True when a query failed on a unique index (SQLSTATE 23505), whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Errors that mean "the database cannot be reached right now", not "this query is wrong". */
const UNAVAILABLE_CODES = new Set([
  // Sockets (Node) and postgres.js's own connection errors.
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  // PostgreSQL: shutting down, crash recovery, starting up, too many connections.
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/** True when a failure is the database being down or restarting (SQLSTATE class 08 included). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  }
  return false;
}

/**
 * True when an insert found no partition for a row (SQLSTATE 23514, which CHECK violations share, hence the
 * message too), whichever driver raised it.
 */
export function isMissingPartition(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, message } = current as Error & { code?: unknown };
    if (code === "23514" && message.startsWith("no partition of relation")) return true;
  }
  return false;
}

/** True when a statement gave up waiting for a lock (SQLSTATE 55P03: lock_timeout, NOWAIT). */
export function isLockNotAvailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "55P03") return true;
  }
  return false;
}
