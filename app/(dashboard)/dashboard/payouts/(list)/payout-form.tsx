"use client";

import { CurrencySelect } from "@/components/currency-select";
import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { payOut } from "../actions";

/** "Pay out now": a currency with an available balance, and an amount (empty: all of it). */
export function PayoutForm({ currencies }: { currencies: string[] }) {
  const [state, formAction, pending] = useToastingActionState(payOut, {});
  return (
    <form action={formAction} className="space-y-3" noValidate>
      <div className="flex flex-wrap items-start gap-3">
        <div className="w-32">
          <CurrencySelect
            choices={{ codes: currencies, defaultCurrency: currencies[0]! }}
            value={state.ok ? undefined : state.values?.currency}
            errors={fieldState(state, "currency").errors}
          />
        </div>
        <div className="w-48">
          <TextField
            label="Amount (optional)"
            inputMode="decimal"
            placeholder="All available"
            {...fieldState(state, "amount")}
            defaultValue={state.ok ? "" : state.values?.amount}
          />
        </div>
        <div className="sm:pt-6">
          <Button type="submit" disabled={pending}>
            {pending ? "Paying out…" : "Pay out"}
          </Button>
        </div>
      </div>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
    </form>
  );
}
