"use client";

import { useState } from "react";
import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { savePayoutAccount } from "./actions";

const FORM_ID = "payout-account-form";

/**
 * The payout account's form: a new IBAN replaces the old one; the saved one is never filled in. Saving opens a
 * dialog that asks for the password again (and the second factor's code when the user has one): its fields
 * belong to the form (`form=`), so the one action receives them with the account (DESIGN.md, "Changing the
 * payout account"). A wrong answer keeps the dialog open on its error; any other outcome closes it.
 */
export function PayoutAccountForm({
  accountHolder,
  twoFactor,
}: {
  accountHolder?: string;
  /** Whether the user signs in with a second factor: its code is asked too. */
  twoFactor: boolean;
}) {
  const [state, formAction, pending] = useToastingActionState(savePayoutAccount, {});
  const [open, setOpen] = useState(false);
  const [answered, setAnswered] = useState(state);
  const identityRefused = Boolean(state.errors?.password ?? state.errors?.code);
  // A new answer from the action: the dialog stays only for a wrong password or code (React's way of
  // adjusting state to a prop's change, without an effect).
  if (state !== answered) {
    setAnswered(state);
    if (!identityRefused) setOpen(false);
  }
  const saveLabel = accountHolder ? "Replace account" : "Save account";
  return (
    <form id={FORM_ID} action={formAction} className="space-y-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Account holder"
          autoComplete="name"
          {...fieldState(state, "account_holder")}
          defaultValue={state.values?.account_holder ?? accountHolder}
        />
        <TextField
          label="IBAN"
          autoComplete="off"
          spellCheck={false}
          placeholder="DE89 3704 0044 0532 0130 00"
          {...fieldState(state, "iban")}
          defaultValue={state.ok ? "" : (state.values?.iban ?? "")}
        />
      </div>
      <Button variant="primary" disabled={pending} onClick={() => setOpen(true)}>
        {pending ? "Saving…" : saveLabel}
      </Button>
      {state.message && !state.ok && !identityRefused ? <Alert>{state.message}</Alert> : null}
      <Dialog open={open} onClose={() => setOpen(false)} title="Confirm it is you">
        <div className="space-y-4">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Payouts will go to this account. Enter your password
            {twoFactor ? " and the code from your authenticator app" : ""} to save it.
            {accountHolder ? " Every owner is emailed, and payouts wait a while before they go to it." : ""}
          </p>
          <TextField
            label="Password"
            name="password"
            type="password"
            form={FORM_ID}
            autoComplete="current-password"
            errors={state.errors?.password}
            autoFocus
          />
          {twoFactor ? (
            <TextField
              label="Authentication code"
              name="code"
              form={FORM_ID}
              inputMode="numeric"
              autoComplete="one-time-code"
              hint="6 digits from your app, or a recovery code"
              errors={state.errors?.code}
            />
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form={FORM_ID} variant="primary" disabled={pending}>
              {pending ? "Saving…" : saveLabel}
            </Button>
          </div>
        </div>
      </Dialog>
    </form>
  );
}
