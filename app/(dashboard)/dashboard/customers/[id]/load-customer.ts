import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { requireMerchantSession } from "@/app/_lib/session";
import { readFor } from "@/db/replicas";
import { getCustomer } from "@/lib/customers/customers";
import { isStorableText } from "@/lib/platform/validation";

/** The customer id in the path, percent-decoded; the page's 404 for broken encoding or a NUL, which no id has. */
function customerIdFrom(encoded: string): string {
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    notFound();
  }
  if (!isStorableText(id)) notFound();
  return id;
}

/**
 * The merchant's customer named by the URL, or the dashboard's 404 (another merchant's is simply not found).
 * Read by the layout before the loading state streams, so a missing customer answers a real 404, then from
 * React's cache by the page.
 */
export const loadCustomer = cache(async (encodedId: string) => {
  const { merchantId } = await requireMerchantSession();
  const customerId = customerIdFrom(encodedId);
  const customer = await readFor(merchantId, (db) => getCustomer(db, merchantId, customerId));
  if (!customer) notFound();
  return { merchantId, customer };
});
