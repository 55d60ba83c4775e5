"use client";

import { useActionState, useState } from "react";
import { CurrencySelect, type CurrencyChoices } from "@/components/currency-select";
import { fieldState } from "@/components/form-state";
import { Link } from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { createTestPayment } from "../actions";

function CreatePaymentForm({ onClose, currencies }: { onClose: () => void; currencies: CurrencyChoices }) {
  const [state, formAction, pending] = useActionState(createTestPayment, {});
  const [waiting, setWaiting] = useState(state.values?.wait_for_payer === "on");
  if (state.ok && state.paymentId) {
    return (
      <div className="space-y-4">
        <Alert tone="success">{state.message}</Alert>
        {state.checkoutUrl ? (
          <div className="flex flex-wrap items-center gap-2">
            <a
              href={state.checkoutUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClassName("primary")}
            >
              Open checkout
            </a>
            <CopyButton value={state.checkoutUrl} label="Copy payment link" />
          </div>
        ) : null}
        <div className="flex flex-wrap items-center justify-end gap-2">
          <Link
            href={`/dashboard/payments/${state.paymentId}`}
            className="text-sm font-semibold text-indigo-600 underline dark:text-indigo-400"
          >
            View payment
          </Link>
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    );
  }
  return (
    <form action={formAction} noValidate className="space-y-4">
      {state.message ? <Alert>{state.message}</Alert> : null}
      <TextField
        label="Amount"
        {...fieldState(state, "amount")}
        inputMode="decimal"
        placeholder="e.g. 12.50"
        hint="Settled by the simulator: 2000.00 to 2999.99 fails on purpose; any other amount completes."
      />
      <CurrencySelect choices={currencies} value={state.values?.currency} errors={state.errors?.currency} />
      <TextField label="External ID" {...fieldState(state, "external_id")} placeholder="Optional" />
      <TextField label="Customer ID" {...fieldState(state, "customer_id")} placeholder="Optional" />
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="wait_for_payer"
            checked={waiting}
            onChange={(event) => setWaiting(event.target.checked)}
            aria-describedby="wait-for-payer-hint"
            className="h-4 w-4 rounded border-zinc-300 text-indigo-600"
          />
          Wait for a payer
        </label>
        <p id="wait-for-payer-hint" className="text-xs text-zinc-600 dark:text-zinc-400">
          The simulator leaves it pending: pay it at its checkout page with a test card.
        </p>
      </div>
      {waiting ? (
        <TextField
          label="Return URL"
          {...fieldState(state, "return_url")}
          inputMode="url"
          placeholder="Optional, e.g. https://shop.example/done"
          hint="Where the payer goes after paying; without one the checkout page shows the result."
        />
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create payment"}
        </Button>
      </div>
    </form>
  );
}

export function CreatePaymentDialog({ currencies }: { currencies: CurrencyChoices }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Create test payment</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Create a test payment">
        <CreatePaymentForm onClose={() => setOpen(false)} currencies={currencies} />
      </Dialog>
    </>
  );
}
