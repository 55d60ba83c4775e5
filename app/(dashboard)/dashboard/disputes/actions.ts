"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { DISPUTE_EVIDENCE_FIELDS } from "@/db/enums";
import { acceptDispute, saveEvidence } from "@/lib/disputes/evidence";

/**
 * "Save draft" and "Submit evidence": every text of the form (an emptied one is cleared), submitted when the
 * button pressed says so (`intent=submit`). The form keeps what was typed when it is refused.
 */
export async function saveEvidenceAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    const values = Object.fromEntries(
      DISPUTE_EVIDENCE_FIELDS.map((field) => [field, formText(formData, field)]),
    );
    const submit = formText(formData, "intent") === "submit";
    try {
      const disputeId = formId(formData, "dispute_id");
      const texts = Object.fromEntries(
        Object.entries(values).map(([field, text]) => [field, text.trim() ? text : null]),
      );
      await saveEvidence(getDb(), merchantId, disputeId, { ...texts, submit });
      revalidatePath("/dashboard", "layout");
      return {
        ok: true,
        message: submit ? "Evidence submitted: the bank is reviewing it." : "Draft saved.",
      };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

/** "Accept dispute": it is lost (an inquiry closes); nothing is returned. */
export async function acceptDisputeAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    try {
      const dispute = await acceptDispute(getDb(), merchantId, formId(formData, "dispute_id"));
      revalidatePath("/dashboard", "layout");
      return {
        ok: true,
        message: dispute.status === "lost" ? "Dispute accepted: it is lost." : "Inquiry closed.",
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
