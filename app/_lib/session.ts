import "server-only";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import type { UserRole } from "@/db/enums";
import { getMemberStanding } from "@/lib/accounts/members";
import { touchUserSession } from "@/lib/accounts/sessions";
import {
  ENVIRONMENT_COOKIE,
  ENVIRONMENT_HEADER,
  readSelector,
  selectorOf,
} from "@/lib/environments/dashboard-paths";
import { listEnvironments, type Environment } from "@/lib/environments/environments";
import { clientIp, clientUserAgent } from "@/lib/platform/client-ip";
import type { SecurityActor } from "@/lib/security/history";
import { auth } from "./auth";
import { REQUESTED_PATH_HEADER, safeReturnPath } from "./return-path";

export type MerchantSession = {
  userId: number;
  /** The environment the page shows (its URL's, else where the user was last): every data query's scope. */
  merchantId: number;
  environment: Environment;
  /** The account: its team, second-factor rule, sandboxes and security history. */
  accountId: number;
  email: string;
  /** The person's name, or their email when they gave none (never the business name). */
  name: string;
  role: UserRole;
  /** This sign-in's server-side session, kept when the user ends their other sessions. */
  sessionKey: string;
  /** Who acts, and from where, as the security history records an action (lib/security/history.ts). */
  actor: SecurityActor;
};

/** Where a member without a second factor is sent when the team requires one. */
export const SECURITY_PATH = "/dashboard/settings/security";

type CurrentMember = MerchantSession & { mustEnrolSecondFactor: boolean };

/**
 * The signed-in user as the database knows them now, once per request however many components ask: null
 * when signed out, when the session was ended on the server (logout, a password change elsewhere), or when
 * the user is no longer a member of the session's merchant (a removed user's session ends at once).
 */
const currentMember = cache(async (): Promise<CurrentMember | null> => {
  const session = await auth();
  const accountId = session?.user?.merchantId;
  if (!session?.user || !session.sessionKey || !accountId || !Number.isInteger(accountId)) return null;
  const userId = Number(session.user.id);
  const { sessionKey } = session;
  const standing = await getMemberStanding(getDb(), { userId, merchantId: accountId, sessionKey });
  if (!standing) return null;
  const requestHeaders = await headers();
  const environment = await chosenEnvironment(accountId, requestHeaders);
  const client = { ip: clientIp(requestHeaders), userAgent: clientUserAgent(requestHeaders) };
  await touchUserSession(getDb(), sessionKey, standing.sessionLastUsedAt, client);
  return {
    userId,
    merchantId: environment.id,
    environment,
    accountId,
    sessionKey,
    email: session.user.email,
    // From the database, not the cookie: a name given or changed since sign-in shows at once.
    name: standing.name ?? session.user.email,
    role: standing.role,
    actor: { actor: session.user.email, ...client },
    mustEnrolSecondFactor: standing.mustEnrolSecondFactor,
  };
});

/** The account's environments, read once per request (the session checks the URL's; the switcher lists them). */
export const accountEnvironments = cache((accountId: number) => listEnvironments(getDb(), accountId));

/**
 * The environment a request works in: the one its URL names (a URL naming another account's, or a deleted one,
 * is a 404), else where the user was last (the cookie, ignored when stale), else the first sandbox, "Test"
 * (DESIGN.md: until live has a processor the dashboard opens there).
 */
async function chosenEnvironment(accountId: number, requestHeaders: Headers): Promise<Environment> {
  const environments = await accountEnvironments(accountId);
  const find = (selector: string | null) =>
    selector === null ? undefined : environments.find((environment) => selectorOf(environment) === selector);
  const named = requestHeaders.get(ENVIRONMENT_HEADER);
  if (named !== null) return find(readSelector(named)) ?? notFound();
  const last = find(readSelector((await cookies()).get(ENVIRONMENT_COOKIE)?.value));
  return last ?? environments.find((environment) => environment.id === accountId)!;
}

const sessionOf = ({ mustEnrolSecondFactor: _, ...session }: CurrentMember) => session;

/**
 * Every dashboard page and server action starts here: no session, no data. Authorization is checked where
 * the data is read, never only in proxy.ts. When the team requires a second factor and this user has none,
 * every page sends them to Security, except the few that let them set one up (`allowWithoutSecondFactor`:
 * the layout around it, the Security page and its actions).
 */
export async function requireMerchantSession(
  options: { allowWithoutSecondFactor?: boolean } = {},
): Promise<MerchantSession> {
  const member = await currentMember();
  if (!member) {
    const requested = (await headers()).get(REQUESTED_PATH_HEADER);
    redirect(requested ? `/login?next=${encodeURIComponent(safeReturnPath(requested))}` : "/login");
  }
  if (member.mustEnrolSecondFactor && !options.allowWithoutSecondFactor)
    redirect(`${SECURITY_PATH}?required=1`);
  return sessionOf(member);
}

/**
 * Whether the visitor is signed in as a user that still exists: the sign-in pages send them on only then (a
 * removed member's leftover cookie must not bounce between /login and the dashboard).
 */
export async function hasLiveSession(): Promise<boolean> {
  return (await currentMember()) !== null;
}

/**
 * The signed-in member for a route handler, which answers with a status instead of redirecting: null when
 * signed out, removed from the merchant, or still owing the team's required second factor.
 */
export async function memberForRoute(): Promise<MerchantSession | null> {
  const member = await currentMember();
  return member && !member.mustEnrolSecondFactor ? sessionOf(member) : null;
}
