import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import type { UserRole } from "@/db/enums";
import { getMemberStanding } from "@/lib/accounts/members";
import { auth } from "./auth";
import { REQUESTED_PATH_HEADER, safeReturnPath } from "./return-path";

export type MerchantSession = {
  userId: number;
  merchantId: number;
  email: string;
  name: string;
  role: UserRole;
};

/** Where a member without a second factor is sent when the team requires one. */
export const SECURITY_PATH = "/dashboard/settings/security";

// Once per request, however many components ask.
const memberStanding = cache((userId: number, merchantId: number) =>
  getMemberStanding(getDb(), userId, merchantId),
);

/**
 * Every dashboard page and server action starts here: no session, no data. Authorization is checked where
 * the data is read, never only in proxy.ts. When the team requires a second factor and this user has none,
 * every page sends them to Security, except the few that let them set one up (`allowWithoutSecondFactor`:
 * the layout around it, the Security page and its actions).
 */
export async function requireMerchantSession(
  options: { allowWithoutSecondFactor?: boolean } = {},
): Promise<MerchantSession> {
  const session = await auth();
  const merchantId = session?.user?.merchantId;
  if (!session?.user || !merchantId || !Number.isInteger(merchantId)) {
    const requested = (await headers()).get(REQUESTED_PATH_HEADER);
    redirect(requested ? `/login?next=${encodeURIComponent(safeReturnPath(requested))}` : "/login");
  }
  const userId = Number(session.user.id);
  // Read from the database on every request: a removed user's session ends at once.
  const standing = await memberStanding(userId, merchantId);
  if (!standing) redirect("/login");
  if (standing.mustEnrolSecondFactor && !options.allowWithoutSecondFactor)
    redirect(`${SECURITY_PATH}?required=1`);
  return {
    userId,
    merchantId,
    email: session.user.email,
    name: session.user.name ?? session.user.email,
    role: standing.role,
  };
}

/**
 * Whether the visitor is signed in as a user that still exists: the sign-in pages send them on only then (a
 * removed member's leftover cookie must not bounce between /login and the dashboard).
 */
export async function hasLiveSession(): Promise<boolean> {
  const session = await auth();
  const merchantId = session?.user?.merchantId;
  if (!session?.user || !merchantId || !Number.isInteger(merchantId)) return false;
  return (await memberStanding(Number(session.user.id), merchantId)) !== null;
}
