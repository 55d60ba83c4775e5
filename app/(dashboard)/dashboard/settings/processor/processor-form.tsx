"use client";

import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { connectProcessorAction } from "./actions";

const PROCESSORS = [
  { value: "mollie", label: "Mollie" },
  { value: "stripe", label: "Stripe" },
];

/**
 * The processor and the merchant's key for it. Connecting asks for the password again (and the second
 * factor's code) in the dashboard's one password dialog, unless it was entered in this session within 10
 * minutes. The key field is never filled in again.
 */
export function ProcessorForm({ current, live }: { current?: string; live: boolean }) {
  const [state, formAction, pending] = useToastingActionState(connectProcessorAction, {});
  return (
    <form action={formAction} className="space-y-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Processor"
          name="processor"
          defaultValue={state.values?.processor || current || "mollie"}
          options={PROCESSORS}
        />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={live ? "live_… or sk_live_…" : "test_… or sk_test_…"}
          {...fieldState(state, "key")}
          defaultValue=""
        />
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The key is checked with the processor before it is saved, then stored encrypted and shown only by its
        last 4 characters. Connecting asks for your password again.
      </p>
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? "Checking the key…" : current ? "Replace key" : "Connect"}
      </Button>
      {state.message && !state.ok && !state.reauthenticate ? <Alert>{state.message}</Alert> : null}
    </form>
  );
}
