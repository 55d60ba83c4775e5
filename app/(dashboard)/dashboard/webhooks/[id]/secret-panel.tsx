"use client";

import { useState } from "react";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { revealSecret, rotateSecret } from "../actions";

export function SecretPanel({ endpointId }: { endpointId: number }) {
  const [revealed, reveal, revealing] = useToastingActionState(revealSecret, {}, { toast: false });
  const [rotated, rotate, rotating] = useToastingActionState(rotateSecret, {}, { toast: false });
  const [confirming, setConfirming] = useState(false);
  const secret = rotated.secret ?? revealed.secret;
  return (
    <section aria-labelledby="secret-heading" className="space-y-3">
      <h2 id="secret-heading" className="text-base font-semibold">
        Signing secret
      </h2>
      {secret ? (
        <div className="flex flex-wrap items-center gap-2">
          <code
            data-testid="signing-secret"
            className="min-w-0 flex-1 break-all rounded-md bg-zinc-100 px-3 py-2 font-mono text-sm dark:bg-zinc-800"
          >
            {secret}
          </code>
          <CopyButton value={secret} label="Copy secret" />
        </div>
      ) : (
        <p className="font-mono text-sm text-zinc-600 dark:text-zinc-400">whsec_••••••••••••••••••••</p>
      )}
      {rotated.message ? <Alert tone="success">{rotated.message}</Alert> : null}
      <div className="flex gap-2">
        {secret ? null : (
          <form action={reveal}>
            <input type="hidden" name="endpoint_id" value={endpointId} />
            <Button type="submit" variant="secondary" disabled={revealing}>
              Reveal secret
            </Button>
          </form>
        )}
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          Rotate secret
        </Button>
      </div>
      <Dialog open={confirming} onClose={() => setConfirming(false)} title="Rotate the signing secret?">
        <form action={rotate} onSubmit={() => setConfirming(false)} className="space-y-4">
          <input type="hidden" name="endpoint_id" value={endpointId} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            A new secret signs from now on. The current one keeps signing alongside it for 24 hours, so your
            receiver can switch without rejecting deliveries.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={rotating}>
              Rotate
            </Button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
