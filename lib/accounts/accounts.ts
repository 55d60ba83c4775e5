import "server-only";
import type { Executor } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { merchants, users } from "@/db/schema";
import { createLiveEnvironment } from "@/lib/environments/environments";
import { validationError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import { recordSignupAttempt, throttledError } from "./login-throttle";
import { hashPassword } from "./passwords";
import { signUpSchema } from "./schemas";

/** A signed-in (or just created) user: `name` is the person's, or their email when they gave none. */
export type MerchantAccount = { merchantId: number; userId: number; email: string; name: string };

/**
 * Creates a merchant and its owner user: the dashboard's sign-up and the CLI's merchant:create. The business
 * name is the merchant's; the owner's own name is optional and never the business name.
 */
export async function createMerchantWithOwner(db: Executor, input: unknown): Promise<MerchantAccount> {
  const { name, owner_name, email, password } = parseInput(signUpSchema, input);
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      // The account's own row is its first sandbox, "Test"; its live environment starts empty beside it.
      const [merchant] = await tx.insert(merchants).values({ name }).returning({ id: merchants.id });
      await createLiveEnvironment(tx, merchant!.id);
      const [user] = await tx
        .insert(users)
        .values({ merchantId: merchant!.id, email, name: owner_name ?? null, passwordHash, role: "owner" })
        .returning({ id: users.id });
      return { merchantId: merchant!.id, userId: user!.id, email, name: owner_name ?? email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError({ email: ["The email has already been taken."] });
    throw error;
  }
}

/** The dashboard's sign-up: validated, then throttled per client address, then created. */
export async function signUpMerchant(db: Executor, input: unknown, ip: string): Promise<MerchantAccount> {
  parseInput(signUpSchema, input);
  const refused = await recordSignupAttempt(db, ip);
  if (refused) throw throttledError(refused.retryAfterSeconds);
  return createMerchantWithOwner(db, input);
}
