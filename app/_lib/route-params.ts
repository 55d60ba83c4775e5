import "server-only";
import { notFound } from "next/navigation";
import { idParam } from "@/lib/platform/validation";

/** The record id of a `[id]` page; anything that is not one is the page's 404. */
export async function recordIdFrom(params: Promise<{ id: string }>): Promise<number> {
  const id = idParam.safeParse((await params).id);
  if (!id.success) notFound();
  return id.data;
}
