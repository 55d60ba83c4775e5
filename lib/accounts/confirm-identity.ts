import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { DomainError, validationError } from "@/lib/platform/errors";
import { beginLoginAttempt, finishLoginAttempt, throttledError } from "./login-throttle";
import { verifyPassword } from "./passwords";
import { codeError, verifySecondFactor } from "./two-factor";

/**
 * What a stolen session does not have: the user's password, and their second factor when they have one
 * (DESIGN.md, "Changing the payout account"). Asked again before the most costly changes. A wrong answer is a
 * field error on `password` or `code` and changes nothing; guesses count against the sign-in throttle, as a
 * login's do, so a session cannot be used to try passwords faster than the login form allows.
 */
export async function confirmIdentity(
  db: Executor,
  userId: number,
  answer: { password: string; code: string },
  ip: string,
): Promise<void> {
  const [user] = await db
    .select({ email: users.email, hash: users.passwordHash, secondFactor: users.totpSecretCiphertext })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new DomainError("not_found", "User not found.");
  if (answer.password === "") throw validationError({ password: ["Enter your password."] });
  if (user.secondFactor && answer.code.trim() === "")
    throw validationError({ code: ["Enter the code from your authenticator app."] });
  const attempt = await beginLoginAttempt(db, user.email, ip);
  if ("retryAfterSeconds" in attempt) throw throttledError(attempt.retryAfterSeconds);
  const passwordRight = await verifyPassword(answer.password, user.hash);
  if (!passwordRight) {
    await finishLoginAttempt(db, attempt, false);
    throw validationError({ password: ["The password is not correct."] });
  }
  if (user.secondFactor) {
    const check = await verifySecondFactor(db, userId, answer.code);
    if (check !== "accepted") {
      await finishLoginAttempt(db, attempt, false);
      throw codeError(check);
    }
  }
  await finishLoginAttempt(db, attempt, true);
}
