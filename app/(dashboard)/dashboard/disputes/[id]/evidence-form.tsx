"use client";

import { useId, useState } from "react";
import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextArea } from "@/components/ui/text-area";
import type { DisputeEvidenceField } from "@/db/enums";
import { saveEvidenceAction } from "../actions";
import { EVIDENCE_LABELS } from "./evidence-labels";

/**
 * The answer to a dispute: one labelled field per evidence text (up to 20,000 characters each), "Save draft",
 * and "Submit evidence" behind a confirmation (submitting is final).
 */
export function EvidenceForm({
  disputeId,
  evidence,
}: {
  disputeId: number;
  evidence: Record<DisputeEvidenceField, string | null>;
}) {
  const [state, formAction, pending] = useToastingActionState(saveEvidenceAction, {});
  const [confirming, setConfirming] = useState(false);
  const formId = useId();
  return (
    <>
      <form
        id={formId}
        action={formAction}
        className="space-y-4"
        noValidate
        onSubmit={() => setConfirming(false)}
      >
        <input type="hidden" name="dispute_id" value={disputeId} />
        <div className="grid gap-4 sm:grid-cols-2">
          {(Object.keys(EVIDENCE_LABELS) as DisputeEvidenceField[]).map((field) => (
            <TextArea
              key={field}
              label={EVIDENCE_LABELS[field].label}
              hint={EVIDENCE_LABELS[field].hint}
              rows={field === "customer_name" || field === "customer_email" ? 1 : 4}
              {...fieldState(state, field)}
              defaultValue={
                state.ok ? (evidence[field] ?? "") : (state.values?.[field] ?? evidence[field] ?? "")
              }
            />
          ))}
        </div>
        {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="draft" variant="secondary" disabled={pending}>
            Save draft
          </Button>
          <Button type="button" variant="primary" disabled={pending} onClick={() => setConfirming(true)}>
            Submit evidence
          </Button>
        </div>
      </form>
      <Dialog open={confirming} onClose={() => setConfirming(false)} title="Submit this evidence?">
        <div className="space-y-4">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Submitting is final: the bank decides on what you send, and nothing can be added after.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              type="submit"
              form={formId}
              name="intent"
              value="submit"
              variant="primary"
              disabled={pending}
            >
              Submit evidence
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
