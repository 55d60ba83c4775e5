"use client";

import { RevealedTokenPanel } from "@/components/revealed-token";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { TOKEN_EXPIRY_CHOICES, TOKEN_SCOPE_CHOICES } from "@/lib/tokens/schemas";
import { generateApiToken } from "./actions";

/** `owner`: the payout_account scope is offered (only owners grant it). */
export function GenerateTokenForm({ owner }: { owner: boolean }) {
  const [state, formAction, pending] = useToastingActionState(generateApiToken, {}, { toast: false });
  return (
    <div className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <h2 className="text-base font-semibold">Generate a token</h2>
      <form
        action={formAction}
        className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
        noValidate
      >
        <TextField
          label="Token name"
          name="name"
          placeholder="e.g. Production backend"
          defaultValue={state.ok ? "" : state.values?.name}
          errors={state.errors?.name}
        />
        <SelectField
          label="Scope"
          name="scope"
          defaultValue={state.values?.scope ?? "write"}
          errors={state.errors?.scope}
          options={TOKEN_SCOPE_CHOICES.filter((choice) => owner || !choice.value.includes(",")).map(
            ({ value, label }) => ({ value, label }),
          )}
        />
        <SelectField
          label="Expires"
          name="expires_in_days"
          defaultValue={state.values?.expires_in_days ?? ""}
          errors={state.errors?.expires_in_days}
          options={[
            { value: "", label: "Never" },
            ...TOKEN_EXPIRY_CHOICES.map((days) => ({ value: String(days), label: `In ${days} days` })),
          ]}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Generating…" : "Generate token"}
        </Button>
      </form>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      {state.revealed ? <RevealedTokenPanel key={state.revealed.id} revealed={state.revealed} /> : null}
    </div>
  );
}
