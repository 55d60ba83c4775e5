"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { RevealedTokenPanel } from "@/components/revealed-token";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SelectField } from "@/components/ui/select-field";
import { ROLL_GRACE_CHOICES } from "@/lib/tokens/schemas";
import { revokeToken, rollToken } from "./actions";

const GRACE_OPTIONS = Object.entries(ROLL_GRACE_CHOICES).map(([value, { label }]) => ({ value, label }));

function RevokeDialog({ tokenId, name, onClose }: { tokenId: number; name: string; onClose: () => void }) {
  const [state, formAction, pending] = useToastingActionState(revokeToken, {});
  return (
    <Dialog open onClose={onClose} title={`Revoke token “${name}”?`}>
      <form action={formAction} className="space-y-4">
        <input type="hidden" name="token_id" value={tokenId} />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Requests using it are refused from the very next one. This cannot be undone.
        </p>
        {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={pending}>
            Revoke token
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RollDialog({ tokenId, name, onClose }: { tokenId: number; name: string; onClose: () => void }) {
  const [state, formAction, pending] = useToastingActionState(rollToken, {});
  return (
    <Dialog open onClose={onClose} title={`Roll token “${name}”`}>
      {state.revealed ? (
        <div className="space-y-4">
          <RevealedTokenPanel revealed={state.revealed} />
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form action={formAction} className="space-y-4">
          <input type="hidden" name="token_id" value={tokenId} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            A new token with the same name and scope is issued. Choose how long the old one keeps working
            while you deploy the new one.
          </p>
          <SelectField
            label="Old token keeps working for"
            name="grace"
            defaultValue="24h"
            options={GRACE_OPTIONS}
          />
          {state.message ? <Alert>{state.message}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              Roll token
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

export function TokenActions({
  tokenId,
  name,
  canRoll,
}: {
  tokenId: number;
  name: string;
  canRoll: boolean;
}) {
  const [open, setOpen] = useState<"revoke" | "roll" | null>(null);
  const router = useRouter();
  // A roll refreshes the list only when its dialog closes, so the new token stays on screen until copied.
  const closeRoll = () => {
    setOpen(null);
    router.refresh();
  };
  return (
    <div className="flex justify-end gap-2">
      {canRoll ? (
        <Button variant="secondary" aria-label={`Roll ${name}`} onClick={() => setOpen("roll")}>
          Roll
        </Button>
      ) : null}
      <Button variant="danger" aria-label={`Revoke ${name}`} onClick={() => setOpen("revoke")}>
        Revoke
      </Button>
      {open === "revoke" ? (
        <RevokeDialog tokenId={tokenId} name={name} onClose={() => setOpen(null)} />
      ) : null}
      {open === "roll" ? <RollDialog tokenId={tokenId} name={name} onClose={closeRoll} /> : null}
    </div>
  );
}
