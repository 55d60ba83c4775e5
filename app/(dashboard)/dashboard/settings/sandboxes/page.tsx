import type { Metadata } from "next";
import { accountEnvironments, requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { LocalTime } from "@/components/relative-time";
import { SectionCard } from "@/components/ui/section-card";
import { SelectField } from "@/components/ui/select-field";
import { SimpleTable } from "@/components/ui/simple-table";
import { TextField } from "@/components/ui/text-field";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { listSandboxes } from "@/lib/environments/environments";
import {
  createAccountKeyAction,
  advanceClockAction,
  createSandboxAction,
  deleteSandboxAction,
  renameSandboxAction,
} from "./actions";
import { NameAndRevealForm } from "./reveal-forms";

export const metadata: Metadata = { title: "Sandboxes" };

const ADVANCE_STEPS = [
  { value: "PT1H", label: "1 hour" },
  { value: "P1D", label: "1 day" },
  { value: "P7D", label: "1 week" },
  { value: "P1M", label: "1 month" },
];

/**
 * Settings → Sandboxes (DESIGN.md, "Live and sandboxes"): the account's sandboxes, each apart from live and
 * from the others; owners make, rename and delete them, and make the account keys CI makes them with.
 */
export default async function SandboxesPage() {
  const { accountId, role } = await requireMerchantSession();
  const [sandboxes, environments] = await Promise.all([
    listSandboxes(getDb(), accountId),
    accountEnvironments(accountId),
  ]);
  const manages = can(role, "sandboxes:manage");
  const clocked = sandboxes.filter((sandbox) => sandbox.clockAt !== null);
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Sandboxes</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Each sandbox holds its own payments, balances, webhooks, logs and keys, apart from live and from the
          others; its payments go to the simulator. The first, where everything made before live existed is
          kept, holds the team and cannot be deleted.
        </p>
      </div>
      <SimpleTable caption="Sandboxes" headings={["Name", "Made", "Time", ""]} empty="No sandboxes.">
        {sandboxes.map((sandbox, index) => (
          <tr key={sandbox.id}>
            <td className="px-4 py-3">
              <span className="font-medium">{sandbox.name}</span>
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">id {sandbox.id}</span>
            </td>
            <td className="px-4 py-3">
              <LocalTime value={sandbox.createdAt} />
            </td>
            <td className="px-4 py-3">
              {sandbox.clockAt ? (
                <>
                  <LocalTime value={sandbox.clockAt} />
                  <span className="block text-xs text-zinc-500 dark:text-zinc-400">test clock</span>
                </>
              ) : (
                <span className="text-zinc-600 dark:text-zinc-400">Real time</span>
              )}
            </td>
            <td className="px-4 py-3 text-right">
              {manages && index > 0 ? (
                <ConfirmActionButton
                  action={deleteSandboxAction}
                  fields={{ sandbox_id: sandbox.id }}
                  label="Delete"
                  variant="secondary"
                  title={`Delete the sandbox “${sandbox.name}”?`}
                  description="Its payments, refunds, disputes, balances, payouts, webhook endpoints, events, logs and keys are deleted with it. This cannot be undone."
                  confirmLabel="Delete sandbox and its data"
                />
              ) : null}
            </td>
          </tr>
        ))}
      </SimpleTable>
      {manages ? (
        <>
          <SectionCard id="new-sandbox-heading" title="New sandbox">
            <NameAndRevealForm
              action={createSandboxAction}
              what="sandbox"
              placeholder="e.g. QA, staging"
              description="A sandbox with a test key (pay_test_…) of its own and the account's settings, or another environment's: its payout schedule, pricing, default currency and webhook endpoints (each with a new secret). With a test clock start (up to 400 days back), its time stands there until you advance it."
              copyChoices={environments.map((environment) => ({
                value: String(environment.id),
                label: environment.kind === "live" ? "Live" : `Sandbox: ${environment.name}`,
              }))}
            />
          </SectionCard>
          {clocked.length > 0 ? (
            <SectionCard id="advance-heading" title="Advance a test clock">
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Moves the sandbox&apos;s time forward. Everything that falls due on the way happens, in order,
                at its time: settlements, balances becoming available, scheduled payouts, expiries.
              </p>
              <ActionForm action={advanceClockAction} fields={{}} submitLabel="Advance">
                <div className="w-48 max-w-full">
                  <SelectField
                    label="Sandbox"
                    name="sandbox_id"
                    defaultValue={String(clocked[0]!.id)}
                    options={clocked.map((sandbox) => ({ value: String(sandbox.id), label: sandbox.name }))}
                  />
                </div>
                <div className="w-40 max-w-full">
                  <SelectField label="By" name="by" defaultValue="P1D" options={ADVANCE_STEPS} />
                </div>
              </ActionForm>
            </SectionCard>
          ) : null}
          <SectionCard id="rename-heading" title="Rename a sandbox">
            <ActionForm action={renameSandboxAction} fields={{}} submitLabel="Rename">
              <div className="w-48 max-w-full">
                <SelectField
                  label="Sandbox"
                  name="sandbox_id"
                  defaultValue={String(sandboxes[0]?.id ?? "")}
                  options={sandboxes.map((sandbox) => ({ value: String(sandbox.id), label: sandbox.name }))}
                />
              </div>
              <div className="w-64 max-w-full">
                <TextField label="New name" name="name" />
              </div>
            </ActionForm>
          </SectionCard>
          <SectionCard id="account-key-heading" title="Account keys">
            <NameAndRevealForm
              action={createAccountKeyAction}
              what="account key"
              placeholder="e.g. CI"
              description="An account key (pay_acct_…) makes and deletes sandboxes through the API, one per test run, and does nothing else. It is listed, rolled and revoked under API keys."
            />
          </SectionCard>
        </>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Only an owner can make, rename or delete sandboxes.
        </p>
      )}
    </div>
  );
}
