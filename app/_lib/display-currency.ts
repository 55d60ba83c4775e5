import "server-only";
import { cache } from "react";
import { getDb } from "@/db/client";
import { getMerchantProfile } from "@/lib/accounts/merchants";

/** The merchant's display currency, read once per request however many components print amounts. */
export const getDisplayCurrency = cache(async (merchantId: number): Promise<string | null> => {
  const merchant = await getMerchantProfile(getDb(), merchantId);
  return merchant?.displayCurrency ?? null;
});
