"use client";

import { RevealedTokenPanel } from "@/components/revealed-token";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import type { RevealingFormState } from "./actions";

/**
 * A name in, a key out (shown once): a new sandbox with its `pay_test_` key, or an account key. The same form
 * for both; `what` names the thing made in its heading, button and the reveal.
 */
export function NameAndRevealForm({
  action,
  what,
  placeholder,
  description,
  copyChoices,
}: {
  action: (previous: RevealingFormState, formData: FormData) => Promise<RevealingFormState>;
  what: string;
  placeholder: string;
  description: string;
  /**
   * A sandbox's: the environments to copy settings from. With them, the form also asks for an optional test clock
   * start (a date).
   */
  copyChoices?: Array<{ value: string; label: string }>;
}) {
  const forSandbox = copyChoices !== undefined;
  const [state, formAction, pending] = useToastingActionState(action, {}, { toast: false });
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      <form
        action={formAction}
        className={`grid gap-3 sm:items-end ${forSandbox ? "sm:grid-cols-[1fr_auto_auto_auto]" : "sm:grid-cols-[1fr_auto]"}`}
        noValidate
      >
        <TextField
          label={`Name of the ${what}`}
          name="name"
          placeholder={placeholder}
          defaultValue={state.ok ? "" : state.values?.name}
          errors={state.errors?.name}
        />
        {forSandbox ? (
          <>
            <TextField
              label="Test clock start (optional)"
              name="clock"
              type="date"
              defaultValue={state.ok ? "" : state.values?.clock}
              errors={state.errors?.clock}
            />
            <SelectField
              label="Copy settings from"
              name="copy_from"
              defaultValue={state.ok ? "" : (state.values?.copy_from ?? "")}
              options={[{ value: "", label: "Nothing (the account's)" }, ...copyChoices]}
              errors={state.errors?.copy_from}
            />
          </>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? "Making…" : `Make ${what}`}
        </Button>
      </form>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      {state.revealed ? <RevealedTokenPanel key={state.revealed.id} revealed={state.revealed} /> : null}
    </div>
  );
}
