"use client";

import { useActionState } from "react";
import { CurrencySelect, type CurrencyChoices } from "@/components/currency-select";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/text-field";
import { createLink } from "./actions";

export function CreateLinkForm({ currencies }: { currencies: CurrencyChoices }) {
  const [state, formAction, pending] = useActionState(createLink, {});
  const refill = (name: string) => ({
    ...fieldState(state, name),
    defaultValue: state.ok ? "" : state.values?.[name],
  });
  return (
    <div className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <h2 className="text-base font-semibold">Create a payment link</h2>
      <form action={formAction} className="grid gap-4 sm:grid-cols-[2fr_1fr] sm:items-start" noValidate>
        <TextField label="Name" placeholder="e.g. Annual membership" {...refill("name")} />
        <div className="grid grid-cols-[1fr_7rem] gap-3">
          <TextField label="Amount" inputMode="decimal" placeholder="25.00" {...refill("amount")} />
          <CurrencySelect
            choices={currencies}
            value={state.ok ? undefined : state.values?.currency}
            errors={fieldState(state, "currency").errors}
          />
        </div>
        <div className="sm:col-span-2">
          <TextField label="Description (optional)" {...refill("description")} />
        </div>
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create link"}
          </Button>
        </div>
      </form>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      {state.created ? (
        <Alert tone="success">
          <p>“{state.created.name}” is ready. Each payer who pays there makes a payment of their own:</p>
          <p className="mt-2 flex flex-wrap items-center gap-2">
            <span className="break-all font-mono text-xs" data-testid="new-link-url">
              {state.created.url}
            </span>
            <CopyButton value={state.created.url} label="Copy link" />
          </p>
        </Alert>
      ) : null}
    </div>
  );
}
