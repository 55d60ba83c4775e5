import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { UserRole } from "@/db/enums";
import { merchants, userSessions, users } from "@/db/schema";
import { DomainError, validationError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import { recordSecurityEvent, remedyFor, type SecurityActor } from "@/lib/security/history";
import { mailOwners } from "@/lib/security/owner-mail";
import { hashPassword, verifyPassword } from "./passwords";
import { changePasswordSchema, resetPasswordSchema, roleSchema } from "./schemas";
import { endOtherUserSessions } from "./sessions";

export type MemberStanding = {
  /** The person's name as it is now (null: they gave none), never a copy from the session cookie. */
  name: string | null;
  role: UserRole;
  mustEnrolSecondFactor: boolean;
  /** When the session was last recorded as used (lib/accounts/sessions.ts touches it once a minute). */
  sessionLastUsedAt: Date;
};

/**
 * What every dashboard request checks about its signed-in user, fresh from the database, in one query: the
 * session is still live (logout and password changes end it), the user is still a member of that merchant (a
 * removed user's session ends), their role, and whether the team requires a second factor they have not set
 * up yet. Null when any of that is gone.
 */
export async function getMemberStanding(
  db: Executor,
  session: { userId: number; merchantId: number; sessionKey: string },
): Promise<MemberStanding | null> {
  const [row] = await db
    .select({
      name: users.name,
      role: users.role,
      hasSecondFactor: users.totpSecretCiphertext,
      required: merchants.requireTwoFactor,
      sessionLastUsedAt: userSessions.lastUsedAt,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .innerJoin(merchants, eq(merchants.id, users.merchantId))
    .where(
      and(
        eq(userSessions.sessionKey, session.sessionKey),
        eq(users.id, session.userId),
        eq(users.merchantId, session.merchantId),
      ),
    );
  if (!row) return null;
  return {
    name: row.name,
    role: row.role,
    mustEnrolSecondFactor: row.required && !row.hasSecondFactor,
    sessionLastUsedAt: row.sessionLastUsedAt,
  };
}

/**
 * Changes a user's password; the current one is required. Every other session of the user ends: whoever
 * knew the old password is signed out everywhere but here.
 */
export async function changePassword(
  db: Executor,
  userId: number,
  input: unknown,
  keepSessionKey: string,
  by?: SecurityActor,
): Promise<void> {
  const { current_password, new_password } = parseInput(changePasswordSchema, input);
  const [user] = await db
    .select({ hash: users.passwordHash, merchantId: users.merchantId, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new DomainError("not_found", "User not found.");
  if (!(await verifyPassword(current_password, user.hash)))
    throw validationError({ current_password: ["The current password is not correct."] });
  const passwordHash = await hashPassword(new_password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await endOtherUserSessions(tx, userId, keepSessionKey);
    if (by) await recordSecurityEvent(tx, user.merchantId, by, "user.password_changed", user.email);
  });
}

/**
 * The operator's reset (`admin user:reset-password`): sets a new password for a login email and ends every
 * session of that user.
 */
export async function resetPassword(
  db: Executor,
  input: unknown,
  by?: SecurityActor,
): Promise<{ user_id: number; email: string }> {
  const { email, password } = parseInput(resetPasswordSchema, input);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.email, email))
      .returning({ id: users.id, merchantId: users.merchantId });
    if (!user) throw new DomainError("not_found", `No user has the email ${email}.`);
    await endOtherUserSessions(tx, user.id, null);
    if (by) await recordSecurityEvent(tx, user.merchantId, by, "user.password_changed", `${email}, reset`);
    return { user_id: user.id, email };
  });
}

export type Member = {
  id: number;
  email: string;
  name: string | null;
  role: UserRole;
  twoFactor: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
};

export async function listMembers(db: Executor, merchantId: number): Promise<Member[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      twoFactor: sql<boolean>`${users.totpSecretCiphertext} is not null`,
      lastSignInAt: users.lastSignInAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.merchantId, merchantId))
    .orderBy(asc(users.createdAt));
  return rows;
}

/**
 * Runs a change to a merchant's members under a lock on the merchant's row, and refuses it if it would leave
 * the merchant without an owner (two owners demoting each other at once cannot both succeed).
 */
async function changeMembers(
  db: Executor,
  merchantId: number,
  userId: number,
  change: (tx: Executor, member: { email: string; role: UserRole }) => Promise<void>,
): Promise<{ email: string; role: UserRole }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from merchants where id = ${merchantId} for update`);
    const [member] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.merchantId, merchantId)));
    if (!member) throw new DomainError("not_found", "Member not found.");
    await change(tx, member);
    const [{ owners }] = (await tx
      .select({ owners: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.merchantId, merchantId), eq(users.role, "owner")))) as [{ owners: number }];
    if (owners === 0)
      throw new DomainError(
        "conflict",
        "A merchant needs at least one owner: make someone else owner first.",
      );
    return member;
  });
}

/**
 * A change to who owns the account is mailed to every owner, and to an owner who was just demoted or removed
 * (a stolen session's first move is to make itself owner and demote the rest), with what to do about it.
 */
export async function notifyOwnersOfOwnership(
  db: Executor,
  merchantId: number,
  change: string,
  by: SecurityActor | undefined,
  also: string[] = [],
): Promise<void> {
  const who = by ? ` by ${by.actor}${by.ip ? `, from ${by.ip}` : ""}` : "";
  const remedy = by ? `\n\nIf you did not expect this: ${remedyFor(by)}` : "";
  await mailOwners(
    db,
    merchantId,
    { subject: "The owners of your account changed", text: `${change}${who}.${remedy}\n` },
    also,
  );
}

export async function changeMemberRole(
  db: Executor,
  merchantId: number,
  userId: number,
  input: unknown,
  by?: SecurityActor,
): Promise<UserRole> {
  const { role } = parseInput(roleSchema, input);
  const before = await changeMembers(db, merchantId, userId, async (tx, member) => {
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, userId));
    if (by)
      await recordSecurityEvent(
        tx,
        merchantId,
        by,
        "member.role_changed",
        `${member.email}: ${member.role} → ${role}`,
      );
  });
  if (before.role !== role && (before.role === "owner" || role === "owner"))
    await notifyOwnersOfOwnership(
      db,
      merchantId,
      role === "owner"
        ? `${before.email} was made an owner (was ${before.role})`
        : `${before.email} is no longer an owner (now ${role})`,
      by,
      [before.email],
    );
  return role;
}

/** Removes a member (or, for their own id, leaves): their session ends on their next request. */
export async function removeMember(
  db: Executor,
  merchantId: number,
  userId: number,
  by?: SecurityActor,
): Promise<void> {
  const removed = await changeMembers(db, merchantId, userId, async (tx, member) => {
    await tx.delete(users).where(eq(users.id, userId));
    if (by)
      await recordSecurityEvent(tx, merchantId, by, "member.removed", `${member.email}, ${member.role}`);
  });
  if (removed.role === "owner")
    await notifyOwnersOfOwnership(db, merchantId, `${removed.email}, an owner, was removed`, by, [
      removed.email,
    ]);
}
