import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { SelectField } from "@/components/ui/select-field";
import { SimpleTable } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { USER_ROLES } from "@/db/enums";
import { listPendingInvitations } from "@/lib/accounts/invitations";
import { listMembers, type Member } from "@/lib/accounts/members";
import { can, ROLE_LABELS } from "@/lib/accounts/permissions";
import { changeRole, leaveTeam, removeFromTeam, revokeInvite } from "./actions";
import { InviteForm } from "./invite-form";

export const metadata: Metadata = { title: "Team" };

const roleOptions = USER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

function MemberControls({
  member,
  you,
  manage,
  onlyOwner,
}: {
  member: Member;
  you: boolean;
  manage: boolean;
  onlyOwner: boolean;
}) {
  // The domain refuses to leave a team without an owner; say so instead of offering a button that fails.
  if (you && onlyOwner)
    return (
      <p className="max-w-56 text-xs text-zinc-600 dark:text-zinc-400">
        You are the only owner: make someone else an owner first.
      </p>
    );
  if (you)
    return (
      <ConfirmActionButton
        action={leaveTeam}
        fields={{}}
        label="Leave team"
        title="Leave this team?"
        description="You are signed out and lose access at once. An owner can invite you again."
        confirmLabel="Leave"
      />
    );
  if (!manage) return null;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <ActionForm action={changeRole} fields={{ user_id: member.id }} submitLabel="Change role">
        <SelectField
          label={`Role of ${member.email}`}
          name="role"
          defaultValue={member.role}
          options={roleOptions}
        />
      </ActionForm>
      <ConfirmActionButton
        action={removeFromTeam}
        fields={{ user_id: member.id }}
        label="Remove"
        title={`Remove ${member.email}?`}
        description="They lose access at once, including any session open now."
        confirmLabel="Remove"
      />
    </div>
  );
}

/** The person's name over their email; without a name (it is optional at sign-up), the email alone. */
function MemberName({ member }: { member: Member }) {
  return (
    <>
      <p className="font-medium [overflow-wrap:anywhere]">{member.name ?? member.email}</p>
      {member.name ? (
        <p className="text-xs text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">{member.email}</p>
      ) : null}
    </>
  );
}

function LastSignIn({ member }: { member: Member }) {
  return member.lastSignInAt ? <RelativeTime value={member.lastSignInAt} /> : <>Never</>;
}

export default async function TeamPage() {
  const { accountId, userId, role } = await requireMerchantSession();
  const manage = can(role, "members:manage");
  const [members, invitations] = await Promise.all([
    listMembers(getDb(), accountId),
    manage ? listPendingInvitations(getDb(), accountId) : Promise.resolve([]),
  ]);
  const onlyOwner = role === "owner" && members.filter((member) => member.role === "owner").length === 1;
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Owners manage the team. Developers work with API keys, webhooks and test payments. Viewers see
          everything read-only and never a token or a webhook secret. You are{" "}
          {ROLE_LABELS[role].toLowerCase()}.
        </p>
      </div>
      {manage ? (
        <section
          aria-labelledby="invite-heading"
          className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
        >
          <h2 id="invite-heading" className="text-base font-semibold">
            Invite a member
          </h2>
          <InviteForm />
        </section>
      ) : null}
      <SimpleTable
        className="hidden sm:block"
        caption="Members"
        headings={["Member", "Role", "Two-factor", "Last sign-in", ""]}
        empty="No members."
      >
        {members.map((member) => (
          <tr key={member.id}>
            <td className="px-4 py-3">
              <MemberName member={member} />
            </td>
            <td className="px-4 py-3">{ROLE_LABELS[member.role]}</td>
            <td className="px-4 py-3">{member.twoFactor ? "On" : "Off"}</td>
            <td className="whitespace-nowrap px-4 py-3">
              <LastSignIn member={member} />
            </td>
            <td className="px-4 py-3">
              <MemberControls
                member={member}
                you={member.id === userId}
                manage={manage}
                onlyOwner={onlyOwner}
              />
            </td>
          </tr>
        ))}
      </SimpleTable>
      <CardList label="Members" empty="No members.">
        {members.map((member) => (
          <Card key={member.id}>
            <MemberName member={member} />
            <p>
              {ROLE_LABELS[member.role]} · two-factor {member.twoFactor ? "on" : "off"} · last sign-in{" "}
              <LastSignIn member={member} />
            </p>
            <MemberControls
              member={member}
              you={member.id === userId}
              manage={manage}
              onlyOwner={onlyOwner}
            />
          </Card>
        ))}
      </CardList>
      {manage && invitations.length > 0 ? (
        <section aria-labelledby="pending-heading" className="space-y-2">
          <h2 id="pending-heading" className="text-base font-semibold">
            Pending invitations
          </h2>
          <ul className="space-y-2">
            {invitations.map((invitation) => (
              <li
                key={invitation.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-white p-3 text-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
              >
                <span className="[overflow-wrap:anywhere]">
                  {invitation.email} · {ROLE_LABELS[invitation.role]} · expires{" "}
                  <RelativeTime value={invitation.expiresAt} />
                </span>
                <ActionForm
                  action={revokeInvite}
                  fields={{ invitation_id: invitation.id }}
                  submitLabel="Revoke"
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
