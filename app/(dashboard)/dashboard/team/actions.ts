"use server";

import { revalidatePath } from "next/cache";
import { signOut } from "@/app/_lib/auth";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { revokeInvitation, sendInvitation } from "@/lib/accounts/invitations";
import { changeMemberRole, removeMember } from "@/lib/accounts/members";

const TEAM_PATH = "/dashboard/team";

export type InviteState = FormState & { link?: string };

export async function invite(_previous: InviteState, formData: FormData): Promise<InviteState> {
  return authorized<InviteState>("members:manage", async ({ accountId, userId, actor }) => {
    const values = { email: formText(formData, "email"), role: formText(formData, "role") };
    try {
      const sent = await sendInvitation(getDb(), accountId, userId, values, actor);
      revalidatePath(TEAM_PATH);
      return {
        ok: true,
        link: sent.url,
        message: sent.mailed
          ? `Invitation mailed to ${sent.email}.`
          : `Send this link to ${sent.email}: it works once, for 7 days.`,
      };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function revokeInvite(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("members:manage", async ({ accountId }) => {
    try {
      await revokeInvitation(getDb(), accountId, formId(formData, "invitation_id"));
      revalidatePath(TEAM_PATH);
      return { ok: true, message: "Invitation revoked." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function changeRole(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("members:manage", async ({ accountId, actor }) => {
    try {
      const role = await changeMemberRole(
        getDb(),
        accountId,
        formId(formData, "user_id"),
        { role: formText(formData, "role") },
        actor,
      );
      revalidatePath(TEAM_PATH);
      return { ok: true, message: `Role changed to ${role}.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function removeFromTeam(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("members:manage", async ({ accountId, actor }) => {
    try {
      await removeMember(getDb(), accountId, formId(formData, "user_id"), actor);
      revalidatePath(TEAM_PATH);
      return { ok: true, message: "Member removed." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function leaveTeam(_previous: FormState): Promise<FormState> {
  return authorized("account:self", async ({ accountId, userId, actor }) => {
    try {
      await removeMember(getDb(), accountId, userId, actor);
    } catch (error) {
      return formStateFromError(error);
    }
    await signOut({ redirectTo: "/login" });
    return {};
  });
}
