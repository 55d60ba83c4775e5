import "server-only";
import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { addressRetryAt } from "@/lib/checkout/card-testing";
import { clientIp } from "@/lib/platform/client-ip";

/** When the payer's address may try a card again (ISO), or null: the page shows it and holds Pay until then. */
export async function payerRetryAt(): Promise<string | null> {
  const retryAt = await addressRetryAt(getDb(), clientIp(await headers()));
  return retryAt?.toISOString() ?? null;
}
