import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { merchants, users } from "@/db/schema";
import { DomainError, validationError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import { isLoginThrottled, recordLoginAttempt } from "./login-throttle";
import { getDecoyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { signUpSchema, type LogInInput } from "./schemas";

export type MerchantAccount = { merchantId: number; userId: number; email: string; name: string };

/** Creates a merchant and its owner user: the dashboard's sign-up and the CLI's merchant:create. */
export async function createMerchantWithOwner(db: Executor, input: unknown): Promise<MerchantAccount> {
  const { name, email, password } = parseInput(signUpSchema, input);
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      const [merchant] = await tx.insert(merchants).values({ name }).returning({ id: merchants.id });
      const [user] = await tx
        .insert(users)
        .values({ merchantId: merchant!.id, email, name, passwordHash, role: "owner" })
        .returning({ id: users.id });
      return { merchantId: merchant!.id, userId: user!.id, email, name };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError({ email: ["The email has already been taken."] });
    throw error;
  }
}

/**
 * Checks a login. Unknown emails cost the same time as wrong passwords, and every attempt is recorded so
 * failures can be throttled per email and per IP across all server processes.
 */
export async function authenticateMerchantUser(
  db: Executor,
  credentials: LogInInput,
  ip: string,
): Promise<MerchantAccount> {
  const throttle = await isLoginThrottled(db, credentials.email, ip);
  if (throttle.throttled) {
    const minutes = Math.max(1, Math.ceil(throttle.retryAfterSeconds / 60));
    throw new DomainError(
      "throttled",
      `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
  const [user] = await db
    .select({
      id: users.id,
      merchantId: users.merchantId,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(eq(users.email, credentials.email))
    .limit(1);
  const valid = await verifyPassword(
    credentials.password,
    user?.passwordHash ?? (await getDecoyPasswordHash()),
  );
  await recordLoginAttempt(db, credentials.email, ip, Boolean(user && valid));
  if (!user || !valid)
    throw new DomainError("unauthenticated", "These credentials do not match our records.");
  return { merchantId: user.merchantId, userId: user.id, email: user.email, name: user.name ?? user.email };
}
