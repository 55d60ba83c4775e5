import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { getMemberStanding } from "@/lib/accounts/members";
import { auth } from "./auth";
import { REQUESTED_PATH_HEADER, safeReturnPath } from "./return-path";

export type MerchantSession = {
  userId: number;
  merchantId: number;
  email: string;
  name: string;
  role: "owner" | "member";
};

/** Where a member without a second factor is sent when the team requires one. */
export const SECURITY_PATH = "/dashboard/settings/security";

// Once per request, however many components ask.
const memberStanding = cache((userId: number, merchantId: number) =>
  getMemberStanding(getDb(), userId, merchantId),
);

/**
 * Every dashboard page and server action starts here: no session, no data. Authorization is checked where
 * the data is read, never only in proxy.ts.
 */
export async function requireMerchantSession(): Promise<MerchantSession> {
  const session = await auth();
  const merchantId = session?.user?.merchantId;
  const requested = (await headers()).get(REQUESTED_PATH_HEADER);
  const toLogin = () =>
    redirect(requested ? `/login?next=${encodeURIComponent(safeReturnPath(requested))}` : "/login");
  if (!session?.user || !merchantId || !Number.isInteger(merchantId)) toLogin();
  const userId = Number(session!.user.id);
  // Read from the database on every request: a removed user's session ends at once.
  const standing = await memberStanding(userId, merchantId!);
  if (!standing) toLogin();
  if (standing!.mustEnrolSecondFactor && !requested?.startsWith(SECURITY_PATH))
    redirect(`${SECURITY_PATH}?required=1`);
  return {
    userId,
    merchantId: merchantId!,
    email: session!.user.email,
    name: session!.user.name ?? session!.user.email,
    role: standing!.role,
  };
}
