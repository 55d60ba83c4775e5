import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { DomainError } from "@/lib/platform/errors";

/**
 * Login throttling, shared by every server process through the database. Three limits, each over its window:
 * - per email and client address: 5 failures in 15 minutes (a success from that address resets it);
 * - per client address: 20 failures in 15 minutes, whatever the emails;
 * - per email, from all addresses together: 50 failures in 15 minutes. Past this ceiling only addresses that
 *   signed in to the account in the last 30 days are still heard, so an attacker spraying from many addresses
 *   cannot lock the owner out of their usual machine.
 */
export const LOGIN_LIMITS = {
  perEmailAndIp: 5,
  perIp: 20,
  perEmail: 50,
  windowSeconds: 15 * 60,
  knownAddressDays: 30,
} as const;

/** Sign-ups per client address per hour (an office behind one address can still onboard a team). */
export const SIGNUPS_PER_IP_PER_HOUR = 10;

export type LoginAttempt = { id: number };

export function throttledError(retryAfterSeconds: number): DomainError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new DomainError(
    "throttled",
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  );
}

/** Serializes the attempts on the same keys: in the transaction, so released on commit. */
async function lockKeys(db: Executor, keys: string[]): Promise<void> {
  // Always in the same order, so two attempts taking overlapping keys cannot deadlock.
  for (const key of [...keys].sort())
    await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** Seconds from now until the oldest counted failure leaves the window. */
function secondsUntil(oldest: Date | string | null): number {
  const start = oldest ? new Date(oldest).getTime() : Date.now();
  return Math.max(1, Math.ceil((start + LOGIN_LIMITS.windowSeconds * 1000 - Date.now()) / 1000));
}

/**
 * Checks the limits and records the attempt in one atomic step, before the slow password hash: a concurrent
 * burst cannot all pass the check, because an attempt under way counts as a failure until it is finished.
 * Returns the attempt to finish, or how long to wait.
 */
export async function beginLoginAttempt(
  db: Executor,
  email: string,
  ip: string,
): Promise<LoginAttempt | { retryAfterSeconds: number }> {
  return db.transaction(async (tx) => {
    await lockKeys(tx, [`login:email:${email}`, `login:ip:${ip}`]);
    const window = sql`now() - make_interval(secs => ${LOGIN_LIMITS.windowSeconds})`;
    // Failures (and attempts under way: succeeded is null) count from the window start, or, for the
    // email-and-address pair, from its last success if later.
    const [row] = await selectRows<{
      pair: number;
      pair_oldest: Date | null;
      ip: number;
      ip_oldest: Date | null;
      email: number;
      email_oldest: Date | null;
      known_address: boolean;
    }>(
      tx,
      sql`
        with pair_since as (
          select greatest(${window}, coalesce(max(created_at), '-infinity')) as at
          from login_attempts where email = ${email} and ip = ${ip} and succeeded
        ), pair as (
          select count(*)::int as n, min(created_at) as oldest from login_attempts, pair_since
          where email = ${email} and ip = ${ip} and succeeded is not true and created_at > pair_since.at
        ), by_ip as (
          select count(*)::int as n, min(created_at) as oldest from login_attempts
          where ip = ${ip} and succeeded is not true and created_at > ${window}
        ), by_email as (
          select count(*)::int as n, min(created_at) as oldest from login_attempts
          where email = ${email} and succeeded is not true and created_at > ${window}
        )
        select pair.n as pair, pair.oldest as pair_oldest, by_ip.n as ip, by_ip.oldest as ip_oldest,
               by_email.n as email, by_email.oldest as email_oldest,
               exists (select 1 from login_attempts where email = ${email} and ip = ${ip} and succeeded
                         and created_at > now() - make_interval(days => ${LOGIN_LIMITS.knownAddressDays})) as known_address
        from pair, by_ip, by_email`,
    );
    const refusals: number[] = [];
    if (row!.pair >= LOGIN_LIMITS.perEmailAndIp) refusals.push(secondsUntil(row!.pair_oldest));
    if (row!.ip >= LOGIN_LIMITS.perIp) refusals.push(secondsUntil(row!.ip_oldest));
    if (row!.email >= LOGIN_LIMITS.perEmail && !row!.known_address)
      refusals.push(secondsUntil(row!.email_oldest));
    if (refusals.length > 0) return { retryAfterSeconds: Math.max(...refusals) };
    const [attempt] = await selectRows<{ id: number | string }>(
      tx,
      sql`insert into login_attempts (email, ip, succeeded) values (${email}, ${ip}, null) returning id`,
    );
    return { id: Number(attempt!.id) };
  });
}

/** Forgets an attempt that was neither a failure nor a sign-in (a right password, the second factor to come). */
export async function discardLoginAttempt(db: Executor, attempt: LoginAttempt): Promise<void> {
  await db.execute(sql`delete from login_attempts where id = ${attempt.id}`);
}

/** Records how an attempt begun with beginLoginAttempt ended. */
export async function finishLoginAttempt(
  db: Executor,
  attempt: LoginAttempt,
  succeeded: boolean,
): Promise<void> {
  await db.execute(sql`update login_attempts set succeeded = ${succeeded} where id = ${attempt.id}`);
}

/** Counts a sign-up against the client address in one atomic step; how long to wait when over the limit. */
export async function recordSignupAttempt(
  db: Executor,
  ip: string,
): Promise<{ retryAfterSeconds: number } | null> {
  return db.transaction(async (tx) => {
    await lockKeys(tx, [`signup:ip:${ip}`]);
    const [row] = await selectRows<{ n: number; oldest: Date | string | null }>(
      tx,
      sql`select count(*)::int as n, min(created_at) as oldest from signup_attempts
          where ip = ${ip} and created_at > now() - interval '1 hour'`,
    );
    if (row!.n >= SIGNUPS_PER_IP_PER_HOUR) {
      const oldest = new Date(row!.oldest!).getTime();
      return { retryAfterSeconds: Math.max(1, Math.ceil((oldest + 3_600_000 - Date.now()) / 1000)) };
    }
    await tx.execute(sql`insert into signup_attempts (ip) values (${ip})`);
    return null;
  });
}
