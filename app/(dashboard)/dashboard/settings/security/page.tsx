import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Link } from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { TextField } from "@/components/ui/text-field";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { listUserSessions } from "@/lib/accounts/sessions";
import { getTwoFactorStatus } from "@/lib/accounts/two-factor";
import { didLately } from "@/lib/security/history";
import { listRecentApiTokens } from "@/lib/tokens/tokens";
import { revokeRecentKeys, savePassword, saveTwoFactorRequirement, turnOffTwoFactor } from "./actions";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSetup } from "./two-factor-setup";

export const metadata: Metadata = { title: "Security" };

const sectionClass =
  "space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";

export default async function SecurityPage({
  searchParams,
}: {
  searchParams: Promise<{ required?: string }>;
}) {
  const { userId, merchantId, accountId, email, role, sessionKey } = await requireMerchantSession({
    allowWithoutSecondFactor: true,
  });
  const [status, sessions, changedPassword] = await Promise.all([
    getTwoFactorStatus(getDb(), userId),
    listUserSessions(getDb(), userId, sessionKey),
    didLately(getDb(), accountId, "user.password_changed", email, 30),
  ]);
  // Just after a password change: the keys made in the last day, which the old password's thief may own.
  const recentKeys =
    changedPassword && can(role, "api_keys:write") ? await listRecentApiTokens(getDb(), merchantId) : [];
  const mustEnrol = status.requiredByTeam && !status.enabled;
  const { required } = await searchParams;
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link href="/dashboard/settings" className="text-indigo-600 hover:underline dark:text-indigo-400">
            Settings
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Security</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Signed in as {email}</p>
      </div>
      {mustEnrol && required === "1" ? (
        <Alert tone="info">Your team requires two-factor sign-in. Set it up to use the dashboard.</Alert>
      ) : null}
      <section aria-labelledby="two-factor-heading" className={sectionClass}>
        <h2 id="two-factor-heading" className="text-base font-semibold">
          Two-factor sign-in
        </h2>
        {status.enabled ? (
          <>
            <p className="text-sm">
              <strong>On.</strong> Sign-in asks for a code from your authenticator app.{" "}
              {status.recoveryCodesLeft} of 10 recovery codes left.
            </p>
            {status.requiredByTeam ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Your team requires it, so it stays on.
              </p>
            ) : (
              <ActionForm action={turnOffTwoFactor} fields={{}} submitLabel="Turn off">
                <div className="w-48">
                  <TextField label="Current code" name="code" autoComplete="one-time-code" />
                </div>
              </ActionForm>
            )}
          </>
        ) : (
          <TwoFactorSetup />
        )}
      </section>
      {can(role, "members:manage") ? (
        <section aria-labelledby="team-2fa-heading" className={sectionClass}>
          <h2 id="team-2fa-heading" className="text-base font-semibold">
            Require two-factor sign-in for everyone
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {status.requiredByTeam
              ? "Required: members without a second factor must set one up before using the dashboard."
              : "Optional today. When required, members without a second factor set one up at their next visit."}
          </p>
          <ActionForm
            action={saveTwoFactorRequirement}
            fields={{ required: String(!status.requiredByTeam) }}
            submitLabel={status.requiredByTeam ? "Make it optional" : "Require two-factor sign-in"}
          />
        </section>
      ) : null}
      <section aria-labelledby="password-heading" className={sectionClass}>
        <h2 id="password-heading" className="text-base font-semibold">
          Password
        </h2>
        <ActionForm action={savePassword} fields={{}} submitLabel="Change password">
          <div className="grid w-full gap-3 sm:grid-cols-3">
            <TextField
              label="Current password"
              name="current_password"
              type="password"
              autoComplete="current-password"
            />
            <TextField label="New password" name="new_password" type="password" autoComplete="new-password" />
            <TextField
              label="Repeat new password"
              name="confirm_password"
              type="password"
              autoComplete="new-password"
            />
          </div>
        </ActionForm>
        {recentKeys.length > 0 ? (
          <div
            className="space-y-2 rounded-md bg-amber-50 p-3 text-sm dark:bg-amber-950"
            data-testid="recent-keys"
          >
            <p>
              Your password is changed, but API keys keep working. These were made in the last day: if you do
              not know one, revoke it.
            </p>
            <ul className="list-disc pl-5">
              {recentKeys.map((key) => (
                <li key={key.id}>
                  {key.name} ({key.displayHint}){key.createdBy ? `, made by ${key.createdBy}` : ""}
                </li>
              ))}
            </ul>
            <ConfirmActionButton
              action={revokeRecentKeys}
              fields={{ token_ids: recentKeys.map((key) => key.id).join(",") }}
              label="Revoke these keys"
              title="Revoke the keys made in the last day?"
              description="Each stops working at once; programs that use them get 401 until given a new key."
              confirmLabel="Revoke keys"
            />
          </div>
        ) : null}
      </section>
      <SessionsSection sessions={sessions} className={sectionClass} />
    </div>
  );
}
