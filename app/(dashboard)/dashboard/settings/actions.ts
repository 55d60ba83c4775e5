"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { setDisplayCurrency } from "@/lib/accounts/merchants";

export async function saveDisplayCurrency(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("settings:write", async ({ merchantId }) => {
    try {
      const currency = await setDisplayCurrency(getDb(), merchantId, {
        display_currency: formText(formData, "display_currency"),
      });
      revalidatePath("/dashboard", "layout");
      return {
        ok: true,
        message: currency ? `Amounts now show ${currency}.` : "Amounts now show no currency.",
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
