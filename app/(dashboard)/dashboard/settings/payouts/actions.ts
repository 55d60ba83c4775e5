"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { setPayoutAccount } from "@/lib/payouts/account";
import { setPayoutSchedule } from "@/lib/payouts/schedule";

/** The bank account payouts go to (as PUT /api/payout-account): the IBAN is shown only as its last 4 again. */
export async function savePayoutAccount(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("settings:write", async ({ merchantId }) => {
    const values = { account_holder: formText(formData, "account_holder"), iban: formText(formData, "iban") };
    try {
      const account = await setPayoutAccount(getDb(), merchantId, values);
      revalidatePath("/dashboard", "layout");
      return { ok: true, message: `Payouts now go to the account ending ${account.iban_last4}.` };
    } catch (error) {
      // What was typed stays in the form, to correct rather than retype (it is the user's own input).
      return formStateFromError(error, values);
    }
  });
}

export async function savePayoutSchedule(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("settings:write", async ({ merchantId }) => {
    try {
      const { payout_schedule } = await setPayoutSchedule(getDb(), merchantId, {
        payout_schedule: formText(formData, "payout_schedule"),
      });
      revalidatePath("/dashboard", "layout");
      return { ok: true, message: `Payout schedule: ${payout_schedule}.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
