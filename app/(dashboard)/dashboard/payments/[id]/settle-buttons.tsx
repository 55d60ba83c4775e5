"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { settle } from "../actions";

/** Stays mounted when the payment settles, so its confirmation outlives the buttons. */
export function SettleButtons({ paymentId, pending }: { paymentId: number; pending: boolean }) {
  const [state, formAction, busy] = useActionState(settle, {});
  return (
    <div className="space-y-2">
      {pending ? (
        <form action={formAction} className="flex flex-wrap gap-2">
          <input type="hidden" name="payment_id" value={paymentId} />
          <Button type="submit" name="outcome" value="completed" disabled={busy}>
            Mark as paid
          </Button>
          <Button type="submit" name="outcome" value="failed" variant="danger" disabled={busy}>
            Mark as failed
          </Button>
        </form>
      ) : null}
      {state.message ? <Alert tone={state.ok ? "success" : "error"}>{state.message}</Alert> : null}
    </div>
  );
}
