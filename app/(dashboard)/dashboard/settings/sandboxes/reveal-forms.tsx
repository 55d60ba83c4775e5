"use client";

import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/text-field";
import type { RevealedKey, RevealingFormState } from "./actions";

/**
 * A name in, a key out (shown once): a new sandbox with its `pay_test_` key, or an account key. The same form
 * for both; `what` names the thing made in its heading, button and the reveal.
 */
export function NameAndRevealForm({
  action,
  what,
  placeholder,
  description,
}: {
  action: (previous: RevealingFormState, formData: FormData) => Promise<RevealingFormState>;
  what: string;
  placeholder: string;
  description: string;
}) {
  const [state, formAction, pending] = useToastingActionState(action, {}, { toast: false });
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      <form action={formAction} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end" noValidate>
        <TextField
          label={`Name of the ${what}`}
          name="name"
          placeholder={placeholder}
          defaultValue={state.ok ? "" : state.values?.name}
          errors={state.errors?.name}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Making…" : `Make ${what}`}
        </Button>
      </form>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      {state.revealed ? (
        <RevealedKeyPanel key={state.revealed.token} revealed={state.revealed} what={what} />
      ) : null}
    </div>
  );
}

function RevealedKeyPanel({ revealed, what }: { revealed: RevealedKey; what: string }) {
  return (
    <section aria-label={`New ${what}'s key`} className="space-y-2">
      <Alert tone="success">
        Made &ldquo;{revealed.name}&rdquo;. Copy its key now: you won&apos;t see it again.
      </Alert>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="revealed-key"
          className="min-w-0 flex-1 break-all rounded-md bg-zinc-100 px-3 py-2 font-mono text-sm dark:bg-zinc-800"
        >
          {revealed.token}
        </code>
        <CopyButton value={revealed.token} label="Copy key" />
      </div>
    </section>
  );
}
