"use client";

import { useState } from "react";
import type { FormState } from "./form-state";
import { useToastingActionState } from "./toaster";
import { Alert } from "./ui/alert";
import { Button, type ButtonVariant } from "./ui/button";
import { Dialog } from "./ui/dialog";

/** A destructive action behind a confirmation dialog (`variant`: the opening button's, quieter in a list's rows). */
export function ConfirmActionButton({
  action,
  fields,
  label,
  title,
  description,
  confirmLabel,
  variant = "danger",
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  fields: Record<string, string | number>;
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  variant?: ButtonVariant;
}) {
  const [open, setOpen] = useState(false);
  // A success is a toast: the button usually goes with what it changed (a canceled payout has no Cancel).
  const [state, formAction, pending] = useToastingActionState(action, {});
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title}>
        <form action={formAction} className="space-y-4">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
          {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={pending}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
