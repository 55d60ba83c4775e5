import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "./auth";
import { REQUESTED_PATH_HEADER, safeReturnPath } from "./return-path";

export type MerchantSession = { userId: number; merchantId: number; email: string; name: string };

/**
 * Every dashboard page and server action starts here: no session, no data. Authorization is checked where
 * the data is read, never only in proxy.ts.
 */
export async function requireMerchantSession(): Promise<MerchantSession> {
  const session = await auth();
  const merchantId = session?.user?.merchantId;
  if (!session?.user || !merchantId || !Number.isInteger(merchantId)) {
    const requested = (await headers()).get(REQUESTED_PATH_HEADER);
    redirect(requested ? `/login?next=${encodeURIComponent(safeReturnPath(requested))}` : "/login");
  }
  return {
    userId: Number(session.user.id),
    merchantId,
    email: session.user.email,
    name: session.user.name ?? session.user.email,
  };
}
