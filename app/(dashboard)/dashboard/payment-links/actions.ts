"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { createPaymentLink, setPaymentLinkActive } from "@/lib/checkout/payment-links";

export type LinkFormState = FormState & { created?: { name: string; url: string } };

export async function createLink(_previous: LinkFormState, formData: FormData): Promise<LinkFormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    const values = {
      name: formText(formData, "name"),
      amount: formText(formData, "amount"),
      currency: formText(formData, "currency"),
      description: formText(formData, "description"),
    };
    try {
      const link = await createPaymentLink(getDb(), merchantId, values);
      revalidatePath("/dashboard/payment-links");
      return { ok: true, created: { name: link.name, url: link.url } };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

/** Deactivate or activate: `active` is "true" or "false", as the button posts it. */
export async function setLinkActive(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    try {
      const active = formText(formData, "active") === "true";
      const link = await setPaymentLinkActive(getDb(), merchantId, formId(formData, "link_id"), { active });
      revalidatePath("/dashboard/payment-links", "layout");
      return { ok: true, message: `“${link.name}” ${active ? "activated" : "deactivated"}.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
