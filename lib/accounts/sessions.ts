import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { userSessions } from "@/db/schema";
import { recorded, type SecurityActor } from "@/lib/security/history";

/** Where a session was used from, as the dashboard shows it. */
export type SessionClient = { ip: string; userAgent: string | null };

export type UserSession = {
  id: number;
  ip: string;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  current: boolean;
};

/** A session's last use is written at most this often: never a write on every page view. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** Browsers send a few hundred characters; a crafted header is cut rather than stored whole. */
const USER_AGENT_MAX = 512;

/** Starts a sign-in's session and returns the key its cookie carries. */
export async function startUserSession(
  db: Executor,
  user: { userId: number; merchantId: number },
  client: SessionClient,
): Promise<string> {
  const sessionKey = randomBytes(24).toString("base64url");
  await db.insert(userSessions).values({
    sessionKey,
    userId: user.userId,
    merchantId: user.merchantId,
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
  });
  return sessionKey;
}

/** Records a use of a live session, when the last one written is older than the touch interval. */
export async function touchUserSession(
  db: Executor,
  sessionKey: string,
  lastUsedAt: Date,
  client: SessionClient,
): Promise<void> {
  if (Date.now() - lastUsedAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return;
  await db
    .update(userSessions)
    .set({ lastUsedAt: new Date(), ip: client.ip, userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) })
    .where(eq(userSessions.sessionKey, sessionKey));
}

/** Logout: the cookie's session ends, wherever a copy of the cookie is. */
export async function endUserSession(db: Executor, sessionKey: string): Promise<void> {
  await db.delete(userSessions).where(eq(userSessions.sessionKey, sessionKey));
}

/**
 * Ends every session of a user but the one named (a password change, turning two-factor sign-in on or off,
 * "Sign out of all other sessions"); with none named, every session (an operator's password reset).
 * Returns how many ended.
 */
export async function endOtherUserSessions(
  db: Executor,
  userId: number,
  keepSessionKey: string | null,
): Promise<number> {
  const ended = await db
    .delete(userSessions)
    .where(
      keepSessionKey === null
        ? eq(userSessions.userId, userId)
        : and(eq(userSessions.userId, userId), ne(userSessions.sessionKey, keepSessionKey)),
    )
    .returning({ id: userSessions.id });
  return ended.length;
}

/**
 * "Sign out of all other sessions", on the Security page: every session of the user but this one, recorded in
 * the merchant's security history with `by`. Returns how many ended.
 */
export async function signOutOtherSessions(
  db: Executor,
  merchantId: number,
  user: { id: number; email: string },
  keepSessionKey: string,
  by?: SecurityActor,
): Promise<number> {
  return recorded(
    db,
    merchantId,
    by,
    "user.signed_out_everywhere",
    (tx) => endOtherUserSessions(tx, user.id, keepSessionKey),
    (ended) => `${user.email}: ${ended} other session${ended === 1 ? "" : "s"} ended`,
  );
}

/** Ends one of the user's own sessions, by the id the Security page lists; false when there is none. */
export async function endUserSessionById(db: Executor, userId: number, sessionId: number): Promise<boolean> {
  const ended = await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), eq(userSessions.id, sessionId)))
    .returning({ id: userSessions.id });
  return ended.length > 0;
}

/** The user's live sessions, the one asking first, then the most recently used. */
export async function listUserSessions(
  db: Executor,
  userId: number,
  currentSessionKey: string,
): Promise<UserSession[]> {
  return db
    .select({
      id: userSessions.id,
      ip: userSessions.ip,
      userAgent: userSessions.userAgent,
      createdAt: userSessions.createdAt,
      lastUsedAt: userSessions.lastUsedAt,
      current: sql<boolean>`${userSessions.sessionKey} = ${currentSessionKey}`.mapWith(Boolean),
    })
    .from(userSessions)
    .where(eq(userSessions.userId, userId))
    .orderBy(desc(sql`${userSessions.sessionKey} = ${currentSessionKey}`), desc(userSessions.lastUsedAt));
}
