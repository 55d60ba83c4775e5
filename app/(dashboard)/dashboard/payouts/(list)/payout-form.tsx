"use client";

import { useId, useRef, useState } from "react";
import { CurrencySelect } from "@/components/currency-select";
import { fieldState } from "@/components/form-state";
import { formatMoney } from "@/components/format";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { payOut } from "../actions";

const PLAIN_AMOUNT = /^\d+(\.\d+)?$/;

/**
 * "Pay out now": a currency with an available balance, and an amount (empty: all of it). Money leaves only
 * after a confirmation that says how much and to which account (DESIGN.md, "Dashboard").
 */
export function PayoutForm({
  available,
  destinationLast4,
}: {
  available: { currency: string; amount: string }[];
  destinationLast4: string;
}) {
  const [state, formAction, pending] = useToastingActionState(payOut, {});
  const formId = useId();
  const form = useRef<HTMLFormElement>(null);
  // What the confirmation asks about, read from the form when "Pay out" is pressed; null while closed.
  const [asking, setAsking] = useState<string | null>(null);
  const currencies = available.map((entry) => entry.currency);
  const ask = () => {
    const data = new FormData(form.current!);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === "string" ? value : "";
    };
    const currency = text("currency") || currencies[0]!;
    const typed = text("amount").trim();
    const all = available.find((entry) => entry.currency === currency)?.amount;
    setAsking(
      typed === ""
        ? `all that is available, ${all ? formatMoney(all, currency) : currency},`
        : PLAIN_AMOUNT.test(typed)
          ? formatMoney(typed, currency)
          : `${typed} ${currency}`,
    );
  };
  // Confirmed: the dialog closes as the form is sent (its button must stay mounted until then).
  const submit = (data: FormData) => {
    setAsking(null);
    formAction(data);
  };
  return (
    <>
      <form id={formId} ref={form} action={submit} className="space-y-3" noValidate>
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
            <Button disabled={pending} onClick={ask}>
              {pending ? "Paying out…" : "Pay out"}
            </Button>
          </div>
        </div>
        {/* The account's refusal (a hold, an errored account) has no field here: it is the message itself. */}
        {state.errors?.payout_account ? (
          <Alert>{state.errors.payout_account.join(" ")}</Alert>
        ) : state.message && !state.ok ? (
          <Alert>{state.message}</Alert>
        ) : null}
      </form>
      <Dialog open={asking !== null} onClose={() => setAsking(null)} title="Pay out now?">
        <div className="space-y-4">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Send {asking} to the bank account ending {destinationLast4}? It leaves your available balance now
            and arrives by the next business day; you can cancel it while it is pending.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setAsking(null)}>
              Cancel
            </Button>
            <Button type="submit" form={formId} variant="primary">
              Pay out now
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
