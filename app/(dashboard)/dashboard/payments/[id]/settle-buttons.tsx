"use client";

import { useState } from "react";
import type { FormState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

export type SettleChoice = {
  /** The value posted as `outcome`. */
  outcome: string;
  label: string;
  /** The confirmation's title, e.g. "Mark payment 4 as paid?". */
  title: string;
  danger?: boolean;
};

/**
 * Final steps taken by hand on a test payment or refund (settle, cancel), each behind a confirmation: they
 * never change again and send their event. Stays mounted once done, so its confirmation outlives the
 * buttons (`open` false hides them).
 */
export function SettleButtons({
  action,
  fields,
  choices,
  open,
  description,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  fields: Record<string, string | number>;
  choices: SettleChoice[];
  open: boolean;
  description: string;
}) {
  // Toasted as the action returns: a failed payment with nothing left to do unmounts these buttons, and an
  // effect after that render would never run.
  const [state, formAction, busy] = useToastingActionState(action, {});
  const [confirming, setConfirming] = useState<SettleChoice | null>(null);
  return (
    // Empty when done (the dialog is portalled), so it takes no room in a row of actions.
    <div className="space-y-2 empty:hidden">
      {open ? (
        <div className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <Button
              key={choice.outcome}
              variant={choice.danger ? "danger" : "primary"}
              onClick={() => setConfirming(choice)}
            >
              {choice.label}
            </Button>
          ))}
        </div>
      ) : null}
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)} title={confirming?.title ?? ""}>
        <form action={formAction} onSubmit={() => setConfirming(null)} className="space-y-4">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Go back
            </Button>
            <Button
              type="submit"
              name="outcome"
              value={confirming?.outcome ?? ""}
              variant={confirming?.danger ? "danger" : "primary"}
              disabled={busy}
            >
              {confirming?.label}
            </Button>
          </div>
        </form>
      </Dialog>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
    </div>
  );
}
