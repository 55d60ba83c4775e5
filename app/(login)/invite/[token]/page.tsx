import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { findUsableInvitation } from "@/lib/accounts/invitations";
import { ROLE_LABELS } from "@/lib/accounts/permissions";
import { AcceptInvitationForm } from "./accept-form";
import { AuthCard } from "../../auth-card";

export const metadata: Metadata = { title: "Join a team" };

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findUsableInvitation(getDb(), token);
  const footer = { text: "Already have an account?", linkText: "Log in", href: "/login" };
  if (!invitation)
    return (
      <AuthCard title="This invitation is no longer valid" footer={footer}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          It was used already, revoked, or has expired (links work for 7 days). Ask an owner of the team for a
          new one.
        </p>
      </AuthCard>
    );
  return (
    <AuthCard title={`Join ${invitation.merchantName}`} footer={footer}>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        You are invited as <strong>{ROLE_LABELS[invitation.role].toLowerCase()}</strong> with the email{" "}
        <strong className="[overflow-wrap:anywhere]">{invitation.email}</strong>.
      </p>
      <AcceptInvitationForm token={token} />
    </AuthCard>
  );
}
