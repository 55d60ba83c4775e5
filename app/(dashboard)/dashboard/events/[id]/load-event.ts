import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { requireMerchantSession } from "@/app/_lib/session";
import { getDb } from "@/db/client";
import { getMerchantEvent } from "@/lib/events/dashboard";

/**
 * The merchant's event named by the URL, or the dashboard's 404 (another merchant's is simply not found).
 * Read by the layout before the loading state streams, so a missing event answers a real 404, then from
 * React's cache by the page.
 */
export const loadEvent = cache(async (id: string) => {
  const { merchantId, role } = await requireMerchantSession();
  const event = await getMerchantEvent(getDb(), merchantId, id);
  if (!event) notFound();
  return { merchantId, role, event };
});
