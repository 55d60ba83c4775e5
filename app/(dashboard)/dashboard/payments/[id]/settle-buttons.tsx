"use client";

import { useActionState, useState } from "react";
import { useSuccessToast } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { SettlementOutcome } from "@/lib/payments/processor";
import { settle } from "../actions";

const LABELS: Record<SettlementOutcome, string> = { completed: "Mark as paid", failed: "Mark as failed" };

/**
 * Settles a test payment by hand, after a confirmation (completed and failed are final). Stays mounted when
 * the payment settles, so its confirmation outlives the buttons.
 */
export function SettleButtons({ paymentId, pending }: { paymentId: number; pending: boolean }) {
  const [state, formAction, busy] = useActionState(settle, {});
  const [confirming, setConfirming] = useState<SettlementOutcome | null>(null);
  useSuccessToast(state);
  return (
    <div className="space-y-2">
      {pending ? (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setConfirming("completed")}>{LABELS.completed}</Button>
          <Button variant="danger" onClick={() => setConfirming("failed")}>
            {LABELS.failed}
          </Button>
        </div>
      ) : null}
      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={
          confirming === "failed"
            ? `Mark payment ${paymentId} as failed?`
            : `Mark payment ${paymentId} as paid?`
        }
      >
        <form action={formAction} onSubmit={() => setConfirming(null)} className="space-y-4">
          <input type="hidden" name="payment_id" value={paymentId} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            This is final: a completed or failed payment never changes again, and its event is sent to your
            webhook endpoints.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              type="submit"
              name="outcome"
              value={confirming ?? "completed"}
              variant={confirming === "failed" ? "danger" : "primary"}
              disabled={busy}
            >
              {LABELS[confirming ?? "completed"]}
            </Button>
          </div>
        </form>
      </Dialog>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
    </div>
  );
}
