"use client";

import { useState } from "react";
import { fieldState, type FormState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { refundPayment } from "../actions";

const REASONS = [
  { value: "requested_by_customer", label: "Requested by the customer" },
  { value: "duplicate", label: "Duplicate payment" },
  { value: "fraudulent", label: "Fraudulent" },
  { value: "other", label: "Other" },
];

/**
 * "Refund" on a completed payment: the amount starts at everything still refundable, and the dialog closes
 * with a toast once the refund is made (a refusal keeps it open, with the error beside its field).
 */
export function RefundDialog({
  paymentId,
  refundable,
  refundableLabel,
}: {
  paymentId: number;
  refundable: string;
  /** The refundable amount as the page prints money. */
  refundableLabel: string;
}) {
  const [state, formAction, busy] = useToastingActionState(refundPayment, {});
  // The state the dialog was opened with: it stays open until a later state is a success.
  const [openedWith, setOpenedWith] = useState<FormState | null>(null);
  const open = openedWith !== null && (openedWith === state || !state.ok);
  return (
    <>
      <Button onClick={() => setOpenedWith(state)}>Refund</Button>
      <Dialog open={open} onClose={() => setOpenedWith(null)} title={`Refund payment ${paymentId}`}>
        <form action={formAction} noValidate className="space-y-4">
          <input type="hidden" name="payment_id" value={paymentId} />
          {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
          <TextField
            label="Amount"
            {...fieldState(state, "amount")}
            defaultValue={state.ok ? refundable : (state.values?.amount ?? refundable)}
            inputMode="decimal"
            hint={`Up to ${refundableLabel} can be refunded. A test refund ending in .99 fails on purpose.`}
          />
          <SelectField
            label="Reason"
            {...fieldState(state, "reason")}
            defaultValue={state.values?.reason || "requested_by_customer"}
            options={REASONS}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpenedWith(null)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Refunding…" : "Refund"}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
