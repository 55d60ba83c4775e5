import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { merchants, users } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { messages, parseInput } from "@/lib/platform/validation";

export async function getMerchantProfile(db: Executor, merchantId: number) {
  const [merchant] = await db
    .select({
      id: merchants.id,
      name: merchants.name,
      paymentsCount: merchants.paymentsCount,
      createdAt: merchants.createdAt,
    })
    .from(merchants)
    .where(eq(merchants.id, merchantId))
    .limit(1);
  return merchant;
}

/** Operators name a merchant by a member's login email. */
export async function findMerchantIdByEmail(db: Executor, email: string): Promise<number> {
  const [user] = await db
    .select({ merchantId: users.merchantId })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  if (!user) throw new DomainError("not_found", `No merchant has a user with the email ${email}.`);
  return user.merchantId;
}

const rateLimitSchema = z.object({
  per_minute: z.coerce
    .number({ error: messages.integer("per_minute") })
    .int(messages.integer("per_minute"))
    .min(1, messages.min("per_minute", 1))
    .max(1_000_000, messages.max("per_minute", 1_000_000)),
});

/** The "contact support" override: a per-merchant API rate limit, per token per minute. */
export async function setMerchantRateLimit(db: Executor, merchantId: number, input: unknown) {
  const { per_minute } = parseInput(rateLimitSchema, input);
  await db
    .update(merchants)
    .set({ rateLimitPerMinute: per_minute, updatedAt: new Date() })
    .where(eq(merchants.id, merchantId));
  return { merchant_id: merchantId, per_minute };
}
