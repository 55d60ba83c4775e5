"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { setDefaultCurrency, setReportTimezone } from "@/lib/accounts/merchants";

export async function saveDefaultCurrency(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("settings:write", async ({ merchantId }) => {
    try {
      const currency = await setDefaultCurrency(getDb(), merchantId, {
        default_currency: formText(formData, "default_currency"),
      });
      revalidatePath("/dashboard", "layout");
      return { ok: true, message: `New payments and links are now in ${currency} unless they name another.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function saveReportTimezone(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("settings:write", async ({ merchantId }) => {
    try {
      const zone = await setReportTimezone(getDb(), merchantId, {
        report_timezone: formText(formData, "report_timezone"),
      });
      revalidatePath("/dashboard", "layout");
      return { ok: true, message: `Reports and their date filters now count days in ${zone}.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
