import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitations } from "@/db/schema";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import {
  acceptInvitation,
  findUsableInvitation,
  inviteMember,
  listPendingInvitations,
  revokeInvitation,
} from "@/lib/accounts/invitations";
import { changeMemberRole, getMemberStanding, listMembers, removeMember } from "@/lib/accounts/members";
import { startUserSession } from "@/lib/accounts/sessions";
import { DomainError } from "@/lib/platform/errors";
import { db } from "../support/direct-db";

const email = (label: string) => `${label}-${randomBytes(5).toString("hex")}@example.test`;
const kind = (error: unknown) => (error instanceof DomainError ? error.kind : String(error));
const member = { name: "Member", password: "member passphrase" };

async function team() {
  const owner = await createMerchantWithOwner(db, {
    name: "Team",
    email: email("owner"),
    password: "long enough pw",
  });
  const join = async (role: string) => {
    const invitation = await inviteMember(db, owner.merchantId, owner.userId, { email: email(role), role });
    return acceptInvitation(db, invitation.token, member);
  };
  return { owner, join };
}

describe("invitations", () => {
  it("validate their input, work once, expire, and a second invitation replaces the first", async () => {
    const { owner } = await team();
    const invite = (input: Record<string, string>) => inviteMember(db, owner.merchantId, owner.userId, input);
    await expect(invite({ email: email("x"), role: "admin" })).rejects.toSatisfy(
      (error) => error instanceof DomainError && Boolean(error.fieldErrors?.role),
    );
    await expect(invite({ email: owner.email, role: "viewer" })).rejects.toSatisfy(
      (error) => error instanceof DomainError && Boolean(error.fieldErrors?.email),
    );
    const address = email("new");
    const first = await invite({ email: address, role: "viewer" });
    const second = await invite({ email: address.toUpperCase(), role: "developer" });
    expect(await findUsableInvitation(db, first.token)).toBeNull();
    expect(await findUsableInvitation(db, second.token)).toMatchObject({ email: address, role: "developer" });
    expect((await listPendingInvitations(db, owner.merchantId)).map((row) => row.id)).toEqual([second.id]);
    // A weak password is refused and the link still works; then it works once.
    await expect(acceptInvitation(db, second.token, { name: "N", password: "short" })).rejects.toSatisfy(
      (error) => kind(error) === "validation",
    );
    const joined = await acceptInvitation(db, second.token, member);
    expect(joined).toMatchObject({ merchantId: owner.merchantId, email: address });
    await expect(acceptInvitation(db, second.token, member)).rejects.toSatisfy(
      (error) => kind(error) === "not_found",
    );
    const joinedSession = await startUserSession(db, joined, { ip: "192.0.2.1", userAgent: null });
    expect(await getMemberStanding(db, { ...joined, sessionKey: joinedSession })).toMatchObject({
      role: "developer",
      mustEnrolSecondFactor: false,
    });
    // Expired links and crafted tokens find nothing.
    const expiring = await invite({ email: email("late"), role: "viewer" });
    await db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expiring.id));
    expect(await findUsableInvitation(db, expiring.token)).toBeNull();
    await expect(acceptInvitation(db, expiring.token, member)).rejects.toSatisfy(
      (error) => kind(error) === "not_found",
    );
    expect(await findUsableInvitation(db, "inv_' or 1=1 --")).toBeNull();
  });

  it("are revoked only by their own merchant", async () => {
    const { owner } = await team();
    const other = await team();
    const invitation = await inviteMember(db, owner.merchantId, owner.userId, {
      email: email("r"),
      role: "viewer",
    });
    await expect(revokeInvitation(db, other.owner.merchantId, invitation.id)).rejects.toSatisfy(
      (error) => kind(error) === "not_found",
    );
    await revokeInvitation(db, owner.merchantId, invitation.id);
    expect(await findUsableInvitation(db, invitation.token)).toBeNull();
  });
});

describe("members", () => {
  it("always keep an owner, even when two owners demote each other at once", async () => {
    const { owner, join } = await team();
    await expect(changeMemberRole(db, owner.merchantId, owner.userId, { role: "viewer" })).rejects.toSatisfy(
      (error) => kind(error) === "conflict",
    );
    await expect(removeMember(db, owner.merchantId, owner.userId)).rejects.toSatisfy(
      (error) => kind(error) === "conflict",
    );
    const second = await join("owner");
    const results = await Promise.allSettled([
      changeMemberRole(db, owner.merchantId, owner.userId, { role: "developer" }),
      changeMemberRole(db, owner.merchantId, second.userId, { role: "developer" }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const owners = (await listMembers(db, owner.merchantId)).filter((row) => row.role === "owner");
    expect(owners).toHaveLength(1);
  });

  it("are changed and removed only by their own merchant; a removed member's standing is gone", async () => {
    const { owner, join } = await team();
    const other = await team();
    const viewer = await join("viewer");
    await expect(
      changeMemberRole(db, other.owner.merchantId, viewer.userId, { role: "owner" }),
    ).rejects.toSatisfy((error) => kind(error) === "not_found");
    await expect(removeMember(db, other.owner.merchantId, viewer.userId)).rejects.toSatisfy(
      (error) => kind(error) === "not_found",
    );
    await expect(changeMemberRole(db, owner.merchantId, viewer.userId, { role: "root" })).rejects.toSatisfy(
      (error) => kind(error) === "validation",
    );
    const viewerSession = await startUserSession(db, viewer, { ip: "192.0.2.1", userAgent: null });
    expect(await getMemberStanding(db, { ...viewer, sessionKey: viewerSession })).not.toBeNull();
    await removeMember(db, owner.merchantId, viewer.userId);
    expect(await getMemberStanding(db, { ...viewer, sessionKey: viewerSession })).toBeNull();
    expect((await listMembers(db, owner.merchantId)).map((row) => row.id)).toEqual([owner.userId]);
  });
});
