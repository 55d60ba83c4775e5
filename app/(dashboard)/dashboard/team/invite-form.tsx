"use client";

import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { invite } from "./actions";

const ROLE_OPTIONS = [
  { value: "developer", label: "Developer: API keys, webhooks, test payments" },
  { value: "viewer", label: "Viewer: read-only, no secrets" },
  { value: "owner", label: "Owner: everything, including the team" },
];

/** Invite by email; the single-use link is shown once (also mailed when SMTP is set up). */
export function InviteForm() {
  const [state, action, pending] = useToastingActionState(invite, {}, { toast: false });
  return (
    <form action={action} className="space-y-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <TextField label="Email" type="email" autoComplete="off" {...fieldState(state, "email")} />
        <SelectField
          label="Role"
          name="role"
          defaultValue={state.values?.role || "developer"}
          options={ROLE_OPTIONS}
          errors={state.errors?.role}
        />
        <Button type="submit" disabled={pending}>
          Invite
        </Button>
      </div>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      {state.ok && state.link ? (
        <div className="space-y-2">
          <Alert tone="success">{state.message}</Alert>
          <div className="flex flex-wrap items-center gap-2">
            <code data-testid="invitation-link" className="break-all font-mono text-sm">
              {state.link}
            </code>
            <CopyButton value={state.link} label="Copy link" />
          </div>
        </div>
      ) : null}
    </form>
  );
}
