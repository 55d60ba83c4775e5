import "server-only";
import { eq, sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { users } from "@/db/schema";
import { DomainError, validationError } from "@/lib/platform/errors";
import { recordSecurityEvent, type SecurityActor } from "@/lib/security/history";
import { beginLoginAttempt, finishLoginAttempt, throttledError } from "./login-throttle";
import { verifyPassword } from "./passwords";
import { codeError, verifySecondFactor } from "./two-factor";

// "Sudo mode" (GitHub's name; Stripe re-authenticates the same way): what a stolen session cookie does not have
// is the password, and the second factor when the user has one. Every action that can move money or grant
// access (lib/accounts/permissions.ts, REAUTHENTICATED) needs them entered again in the same session within the
// last 10 minutes. Signing in does not count: a stolen cookie is a signed-in session.

/** How long a re-entered password opens the sensitive actions, in this session only. */
export const REAUTHENTICATION_WINDOW_MINUTES = 10;

/** The member re-entering their password, in one session, from one place. */
export type Reauthenticating = {
  userId: number;
  merchantId: number;
  sessionKey: string;
  actor: SecurityActor;
};

/** Whether this session re-entered its password recently, and whether the user has a second factor to ask for. */
export async function reauthenticationStanding(
  db: Executor,
  userId: number,
  sessionKey: string,
): Promise<{ recent: boolean; secondFactor: boolean }> {
  const [row] = await selectRows<{ recent: boolean | null; second_factor: boolean }>(
    db,
    sql`select s.reauthenticated_at > now() - make_interval(mins => ${REAUTHENTICATION_WINDOW_MINUTES}) as recent,
               u.totp_secret_ciphertext is not null as second_factor
        from users u left join user_sessions s on s.user_id = u.id and s.session_key = ${sessionKey}
        where u.id = ${userId}`,
  );
  return { recent: row?.recent === true, secondFactor: row?.second_factor === true };
}

/**
 * Checks the password (and the second factor's code when the user has one) and opens the window for this
 * session. A wrong answer is a field error on `password` or `code`, changes nothing, is recorded in the
 * security history, and counts against the sign-in throttle as a login's guess does, so a session cannot be
 * used to try passwords faster than the login form allows.
 */
export async function reauthenticate(
  db: Executor,
  member: Reauthenticating,
  answer: { password: string; code: string },
): Promise<void> {
  const [user] = await db
    .select({ email: users.email, hash: users.passwordHash, secondFactor: users.totpSecretCiphertext })
    .from(users)
    .where(eq(users.id, member.userId));
  if (!user) throw new DomainError("not_found", "User not found.");
  if (answer.password === "") throw validationError({ password: ["Enter your password."] });
  if (user.secondFactor && answer.code.trim() === "")
    throw validationError({ code: ["Enter the code from your authenticator app."] });
  const attempt = await beginLoginAttempt(db, user.email, member.actor.ip ?? "unknown");
  if ("retryAfterSeconds" in attempt) throw throttledError(attempt.retryAfterSeconds);
  const refused = async (what: string, error: DomainError) => {
    await finishLoginAttempt(db, attempt, false);
    await recordSecurityEvent(db, member.merchantId, member.actor, "user.reauthentication_failed", what);
    return error;
  };
  if (!(await verifyPassword(answer.password, user.hash)))
    throw await refused("wrong password", validationError({ password: ["The password is not correct."] }));
  if (user.secondFactor) {
    const check = await verifySecondFactor(db, member.userId, answer.code);
    if (check !== "accepted") throw await refused("wrong two-factor code", codeError(check));
  }
  await finishLoginAttempt(db, attempt, true);
  await selectRows(
    db,
    sql`update user_sessions set reauthenticated_at = now()
        where session_key = ${member.sessionKey} and user_id = ${member.userId}`,
  );
}
