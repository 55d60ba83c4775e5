"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { createTestPayment } from "../actions";

function CreatePaymentForm({ onClose }: { onClose: () => void }) {
  const [state, formAction, pending] = useActionState(createTestPayment, {});
  if (state.ok && state.paymentId) {
    return (
      <div className="space-y-4">
        <Alert tone="success">{state.message}</Alert>
        <div className="flex justify-end gap-2">
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
        hint="2000.00 to 2999.99 fails on purpose; any other amount completes."
      />
      <TextField label="External ID" {...fieldState(state, "external_id")} placeholder="Optional" />
      <TextField label="Customer ID" {...fieldState(state, "customer_id")} placeholder="Optional" />
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

export function CreatePaymentDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Create test payment</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Create a test payment">
        <CreatePaymentForm onClose={() => setOpen(false)} />
      </Dialog>
    </>
  );
}
