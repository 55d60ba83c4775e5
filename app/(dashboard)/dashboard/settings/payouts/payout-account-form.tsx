"use client";

import { fieldState } from "@/components/form-state";
import { useBrowserTimeZone } from "@/components/relative-time";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { savePayoutAccount } from "./actions";

/**
 * The payout account's form: a new IBAN replaces the old one; the saved one is never filled in. Saving asks for
 * the password again (and the second factor's code when the user has one) in the dashboard's one password
 * dialog, unless it was entered in this session within 10 minutes (DESIGN.md, "Changing the payout account").
 */
export function PayoutAccountForm({ accountHolder }: { accountHolder?: string }) {
  const [state, formAction, pending] = useToastingActionState(savePayoutAccount, {});
  const timeZone = useBrowserTimeZone();
  const saveLabel = accountHolder ? "Replace account" : "Save account";
  return (
    <form action={formAction} className="space-y-3" noValidate>
      {/* The reader's zone, for the times the answer says ("2 Dec 2026, 20:54 CET"). */}
      <input type="hidden" name="time_zone" value={timeZone} />
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
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Saving asks for your password again.
        {accountHolder
          ? " Every owner is emailed, and payouts wait a while before they go to a new account."
          : ""}
      </p>
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? "Saving…" : saveLabel}
      </Button>
      {state.message && !state.ok && !state.reauthenticate ? <Alert>{state.message}</Alert> : null}
    </form>
  );
}
