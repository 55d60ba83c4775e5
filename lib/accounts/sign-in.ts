import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { recordSecurityEvent } from "@/lib/security/history";
import type { MerchantAccount } from "./accounts";
import { beginLoginAttempt, discardLoginAttempt, finishLoginAttempt, throttledError } from "./login-throttle";
import { getDecoyPasswordHash, verifyPassword } from "./passwords";
import type { LogInInput } from "./schemas";
import { createSignInChallenge, readSignInChallenge } from "./sign-in-challenge";
import { verifySecondFactor } from "./two-factor";

/** A right password: signed in, or (two-factor users) a challenge to answer with a code. */
export type PasswordResult = { account: MerchantAccount } | { challenge: string };

const refused = () => new DomainError("unauthenticated", "These credentials do not match our records.");

/** A right code whose time step has signed in already (replay protection): the next code will do. */
export class CodeAlreadyUsed extends DomainError {
  constructor() {
    super("unauthenticated", "The code was already used.");
  }
}

/** Where a sign-in comes from: the security history records it with each attempt on a known user. */
export type SignInClient = { ip: string; userAgent: string | null };

/** A sign-in, and its record in the merchant's security history, in one transaction. */
async function signedIn(
  db: Executor,
  user: { id: number; merchantId: number; email: string; name: string | null },
  client: SignInClient,
  how: string,
) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
    await recordSecurityEvent(tx, user.merchantId, { actor: user.email, ...client }, "user.signed_in", how);
  });
  return { merchantId: user.merchantId, userId: user.id, email: user.email, name: user.name ?? user.email };
}

/**
 * A refused attempt on a known user: the login throttle's count and the merchant's record in one transaction.
 * An unknown email belongs to no merchant: the throttle alone counts it.
 */
async function failedSignIn(
  db: Executor,
  attempt: Parameters<typeof finishLoginAttempt>[1],
  user: { merchantId: number; email: string },
  client: SignInClient,
  why: string,
) {
  await db.transaction(async (tx) => {
    await finishLoginAttempt(tx, attempt, false);
    await recordSecurityEvent(
      tx,
      user.merchantId,
      { actor: user.email, ...client },
      "user.sign_in_failed",
      why,
    );
  });
}

/**
 * The password step. Unknown emails cost the same time as wrong passwords, and every attempt is recorded
 * (before the hash, see beginLoginAttempt) so failures are throttled across all server processes.
 */
export async function authenticateMerchantUser(
  db: Executor,
  credentials: LogInInput,
  ip: string,
  userAgent: string | null = null,
): Promise<PasswordResult> {
  const client = { ip, userAgent };
  const attempt = await beginLoginAttempt(db, credentials.email, ip);
  if ("retryAfterSeconds" in attempt) throw throttledError(attempt.retryAfterSeconds);
  const [user] = await db
    .select({
      id: users.id,
      merchantId: users.merchantId,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      secondFactor: users.totpSecretCiphertext,
    })
    .from(users)
    .where(eq(users.email, credentials.email))
    .limit(1);
  const valid = await verifyPassword(
    credentials.password,
    user?.passwordHash ?? (await getDecoyPasswordHash()),
  );
  if (!user) {
    await finishLoginAttempt(db, attempt, false);
    throw refused();
  }
  if (!valid) {
    await failedSignIn(db, attempt, user, client, "wrong password");
    throw refused();
  }
  if (user.secondFactor) {
    // Neither a failure nor a sign-in yet: the code step records its own attempt.
    await discardLoginAttempt(db, attempt);
    return { challenge: createSignInChallenge(user.id) };
  }
  await finishLoginAttempt(db, attempt, true);
  return { account: await signedIn(db, user, client, "password") };
}

/** The second step: a TOTP or recovery code for the challenge, throttled like passwords. */
export async function completeSecondFactor(
  db: Executor,
  input: { challenge: string; code: string },
  ip: string,
  userAgent: string | null = null,
): Promise<MerchantAccount> {
  const client = { ip, userAgent };
  const userId = readSignInChallenge(input.challenge);
  if (userId === null) throw new DomainError("unauthenticated", "The sign-in expired. Please start again.");
  const [user] = await db
    .select({ id: users.id, merchantId: users.merchantId, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw refused();
  const attempt = await beginLoginAttempt(db, user.email, ip);
  if ("retryAfterSeconds" in attempt) throw throttledError(attempt.retryAfterSeconds);
  const check = await verifySecondFactor(db, user.id, input.code);
  // A used code counts as a failure, as any code that does not sign in does.
  if (check !== "accepted") {
    await failedSignIn(db, attempt, user, client, check === "used" ? "code already used" : "wrong code");
    throw check === "used"
      ? new CodeAlreadyUsed()
      : new DomainError("unauthenticated", "The code is not valid.");
  }
  await finishLoginAttempt(db, attempt, true);
  return signedIn(db, user, client, "password and second factor");
}
