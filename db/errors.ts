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
  // A write on a node that is not the writable primary (yet): one pg_auto_failover has promoted but keeps
  // read-only until the old primary must have stopped itself (its demote timeout), or a standby.
  "25006",
]);

/**
 * A Citus coordinator's word for a worker it lost on the way (a node restarting, a connection cut): raised
 * without a SQLSTATE of its own (XX000), so told by its message (remote_transaction.c, connection_management.c;
 * PostgreSQL's own when the worker's postmaster died under the call; Citus's when the coordinator's own
 * postmaster died while its backend waited on a worker).
 */
const CITUS_NODE_LOST =
  /^(failure on connection marked as essential|connection to the remote node .* failed|could not establish any connections to the node|connection not open|terminating connection due to unexpected postmaster exit|server closed the connection unexpectedly|postmaster was shut down, exiting)/;

/**
 * True when a failure is the database being down or restarting (SQLSTATE class 08 included), or, on Citus, a
 * worker lost during the request: a transient fault, answered 503 with Retry-After, never 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
    if (code === "XX000" && CITUS_NODE_LOST.test(current.message)) return true;
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

/**
 * True when a write function refused an Idempotency-Key used with another request (SQLSTATE PA409, raised by
 * claim_idempotency_key, db/functions/idempotency.sql): the API's 409.
 */
export function isIdempotencyKeyReused(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "PA409") return true;
  }
  return false;
}

/**
 * True when a write function refused what was asked (SQLSTATE PA422: a refund of more than is refundable, say),
 * having written nothing: the caller says why, in the API's words.
 */
export function isWriteRefused(error: unknown): boolean {
  return writeRefusal(error) !== undefined;
}

/** A write function's refusal as it raised it: its message, detail and hint (create_payout names the field). */
export function writeRefusal(
  error: unknown,
): { message: string; detail?: string; hint?: string } | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "PA422") return current;
  }
  return undefined;
}

/** True when a statement gave up waiting for a lock (SQLSTATE 55P03: lock_timeout, NOWAIT). */
export function isLockNotAvailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "55P03") return true;
  }
  return false;
}

/**
 * Errors after which the transaction was rolled back and the same work may simply run again: a serialization
 * failure (40001), a deadlock PostgreSQL broke by aborting this side (40P01), a lock wait past lock_timeout
 * (55P03). Under load they happen to correct requests; they are never the request's fault.
 */
const CONFLICT_CODES = new Set(["40001", "40P01", "55P03"]);

export function isTransientConflict(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (CONFLICT_CODES.has(String((current as Error & { code?: unknown }).code))) return true;
  }
  return false;
}

/**
 * Runs money-path work (a create, a settle, a refund, a cancel: each one transaction) once more after a
 * transient conflict, a short random pause later so two retried sides do not meet again; a second one is
 * thrown, and answered 503 with Retry-After. Never retried: a dropped connection, after which the work may
 * have committed (those are 503 at once; an Idempotency-Key makes the client's retry safe).
 */
export async function onceMoreOnConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isTransientConflict(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
    return work();
  }
}
