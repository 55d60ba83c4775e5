import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { loginAttempts } from "@/db/schema";

/** Failed logins allowed per window before further attempts are refused. */
export const LOGIN_FAILURES_PER_EMAIL = 5;
export const LOGIN_FAILURES_PER_IP = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

export async function isLoginThrottled(
  db: Executor,
  email: string,
  ip: string,
): Promise<{ throttled: boolean; retryAfterSeconds: number }> {
  // Failures count from the later of the window start and the account's last successful login.
  const [row] = await selectRows<{ email_failures: number; ip_failures: number; oldest: Date | null }>(
    db,
    sql`
      with since as (
        select greatest(
          now() - make_interval(secs => ${LOGIN_WINDOW_SECONDS}),
          coalesce((select max(created_at) from login_attempts where email = ${email} and succeeded), '-infinity')
        ) as email_since
      )
      select
        (select count(*)::int from login_attempts, since
          where email = ${email} and not succeeded and created_at > since.email_since) as email_failures,
        (select count(*)::int from login_attempts
          where ip = ${ip} and not succeeded and created_at > now() - make_interval(secs => ${LOGIN_WINDOW_SECONDS})) as ip_failures,
        (select min(created_at) from login_attempts, since
          where (email = ${email} and created_at > since.email_since or ip = ${ip} and created_at > now() - make_interval(secs => ${LOGIN_WINDOW_SECONDS}))
            and not succeeded) as oldest`,
  );
  const throttled =
    (row?.email_failures ?? 0) >= LOGIN_FAILURES_PER_EMAIL ||
    (row?.ip_failures ?? 0) >= LOGIN_FAILURES_PER_IP;
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : Date.now();
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((oldest + LOGIN_WINDOW_SECONDS * 1000 - Date.now()) / 1000),
  );
  return { throttled, retryAfterSeconds };
}

export async function recordLoginAttempt(db: Executor, email: string, ip: string, succeeded: boolean) {
  await db.insert(loginAttempts).values({ email, ip, succeeded });
}
