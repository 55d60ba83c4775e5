import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { merchants } from "@/db/schema";

export async function getMerchantProfile(db: Executor, merchantId: number) {
  const [merchant] = await db
    .select({ id: merchants.id, name: merchants.name, paymentsCount: merchants.paymentsCount, createdAt: merchants.createdAt })
    .from(merchants)
    .where(eq(merchants.id, merchantId))
    .limit(1);
  return merchant;
}
