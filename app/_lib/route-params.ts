import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { idParam } from "@/lib/platform/validation";
import { requireMerchantSession } from "./session";

/** The record id of a `[id]` page; anything that is not one is the page's 404. */
export async function recordIdFrom(params: Promise<{ id: string }>): Promise<number> {
  const id = idParam.safeParse((await params).id);
  if (!id.success) notFound();
  return id.data;
}

/**
 * A `[id]` page's loader: the merchant's record named by the URL, or the dashboard's 404 (another merchant's
 * record is simply not found). Read once per request: first by the page's layout, before its loading state
 * streams, so a missing record answers a real 404; then, from cache, by the page.
 */
export function recordLoader<Record>(find: (merchantId: number, id: number) => Promise<Record | undefined>) {
  const loadById = cache(async (id: number) => {
    const { merchantId, role, environment } = await requireMerchantSession();
    const record = await find(merchantId, id);
    if (record === undefined) notFound();
    return { merchantId, role, environment, record };
  });
  return async (params: Promise<{ id: string }>) => loadById(await recordIdFrom(params));
}
