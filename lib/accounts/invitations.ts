import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { UserRole } from "@/db/enums";
import { isUniqueViolation } from "@/db/errors";
import { invitations, merchants, users } from "@/db/schema";
import { appOrigin } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { sendMail } from "@/lib/platform/mailer";
import { parseInput } from "@/lib/platform/validation";
import { recordSecurityEvent, type SecurityActor } from "@/lib/security/history";
import type { MerchantAccount } from "./accounts";
import { notifyOwnersOfOwnership } from "./members";
import { hashPassword } from "./passwords";
import { acceptInvitationSchema, inviteSchema } from "./schemas";

/**
 * Invitations: an owner invites an email with a role; the link carries a random token shown once (only its
 * SHA-256 is stored) and works once, for seven days. Accepting creates the user with that role.
 */
const INVITATION_DAYS = 7;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Neither accepted nor revoked. */
const open = () => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
/** Open and not expired: the link still works. */
const usable = () => and(open(), gt(invitations.expiresAt, sql`now()`));

export type CreatedInvitation = { id: number; email: string; role: UserRole; token: string; expiresAt: Date };

export async function inviteMember(
  db: Executor,
  merchantId: number,
  invitedBy: number | null,
  input: unknown,
  by?: SecurityActor,
): Promise<CreatedInvitation> {
  const { email, role } = parseInput(inviteSchema, input);
  // The email is the login name, unique across the platform.
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing) throw validationError({ email: ["This email already has an account."] });
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  return db.transaction(async (tx) => {
    // Inviting the same email again replaces the earlier link.
    await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.merchantId, merchantId), eq(invitations.email, email), open()));
    const [row] = await tx
      .insert(invitations)
      .values({ merchantId, email, role, tokenHash: hashToken(token), invitedBy, expiresAt })
      .returning({ id: invitations.id });
    if (by) await recordSecurityEvent(tx, merchantId, by, "member.invited", `${email}, ${role}`);
    return { id: row!.id, email, role, token, expiresAt };
  });
}

/**
 * Invites and passes the link on: by mail when SMTP_URL is set; either way the link is returned, for the
 * dashboard to show once and the CLI to print.
 */
export async function sendInvitation(
  db: Executor,
  merchantId: number,
  invitedBy: number | null,
  input: unknown,
  by?: SecurityActor,
): Promise<CreatedInvitation & { url: string; mailed: boolean }> {
  const invitation = await inviteMember(db, merchantId, invitedBy, input, by);
  const url = `${appOrigin()}/invite/${invitation.token}`;
  const [merchant] = await db
    .select({ name: merchants.name })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  if (invitation.role === "owner")
    await notifyOwnersOfOwnership(db, merchantId, `${invitation.email} was invited as an owner`, by);
  const mailed = await sendMail({
    to: invitation.email,
    subject: `You are invited to ${merchant?.name ?? "a merchant"} on Payments`,
    text: `You are invited to join ${merchant?.name ?? "a merchant"} as ${invitation.role}.\n\nAccept: ${url}\n\nThe link works once and expires on ${invitation.expiresAt.toUTCString()}.\n`,
  });
  return { ...invitation, url, mailed };
}

export type PendingInvitation = {
  id: number;
  email: string;
  role: UserRole;
  expiresAt: Date;
  createdAt: Date;
};

/** Invitations still usable, newest first. */
export async function listPendingInvitations(db: Executor, merchantId: number): Promise<PendingInvitation[]> {
  return db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      createdAt: invitations.createdAt,
    })
    .from(invitations)
    .where(and(eq(invitations.merchantId, merchantId), usable()))
    .orderBy(desc(invitations.createdAt));
}

export async function revokeInvitation(
  db: Executor,
  merchantId: number,
  invitationId: number,
): Promise<void> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.id, invitationId), eq(invitations.merchantId, merchantId), open()))
    .returning({ id: invitations.id });
  if (rows.length === 0) throw new DomainError("not_found", "Invitation not found.");
}

export type InvitationView = { merchantName: string; email: string; role: UserRole };

/** What the invitation page shows; null for a token that is unknown, used, revoked or expired. */
export async function findUsableInvitation(db: Executor, token: string): Promise<InvitationView | null> {
  if (!/^inv_[\w-]{20,64}$/.test(token)) return null;
  const [row] = await db
    .select({ merchantName: merchants.name, email: invitations.email, role: invitations.role })
    .from(invitations)
    .innerJoin(merchants, eq(merchants.id, invitations.merchantId))
    .where(and(eq(invitations.tokenHash, hashToken(token)), usable()));
  return row ?? null;
}

/** Accepts an invitation: once (the claim and the new user commit together), before it expires. */
export async function acceptInvitation(
  db: Executor,
  token: string,
  input: unknown,
  from: Pick<SecurityActor, "ip" | "userAgent"> = { ip: null, userAgent: null },
): Promise<MerchantAccount> {
  const { name, password } = parseInput(acceptInvitationSchema, input);
  const passwordHash = await hashPassword(password);
  try {
    const joined = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(invitations)
        .set({ acceptedAt: new Date() })
        .where(and(eq(invitations.tokenHash, hashToken(token)), usable()))
        .returning({ merchantId: invitations.merchantId, email: invitations.email, role: invitations.role });
      if (!claimed)
        throw new DomainError("not_found", "This invitation link is no longer valid. Ask for a new one.");
      const [user] = await tx
        .insert(users)
        .values({
          merchantId: claimed.merchantId,
          email: claimed.email,
          name,
          passwordHash,
          role: claimed.role,
        })
        .returning({ id: users.id });
      const by = { actor: claimed.email, ...from };
      await recordSecurityEvent(
        tx,
        claimed.merchantId,
        by,
        "member.joined",
        `${claimed.email}, ${claimed.role}`,
      );
      return {
        merchantId: claimed.merchantId,
        userId: user!.id,
        email: claimed.email,
        name,
        role: claimed.role,
        by,
      };
    });
    if (joined.role === "owner")
      await notifyOwnersOfOwnership(db, joined.merchantId, `${joined.email} joined as an owner`, joined.by);
    return { merchantId: joined.merchantId, userId: joined.userId, email: joined.email, name: joined.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError({ name: ["This email already has an account."] });
    throw error;
  }
}
