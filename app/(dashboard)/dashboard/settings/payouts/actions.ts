"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { notifyOwnersOfChange, payoutsHeld, setPayoutAccount } from "@/lib/payouts/account";
import { setPayoutSchedule } from "@/lib/payouts/schedule";
import { readableTime } from "@/lib/platform/timestamps";

/**
 * The bank account payouts go to (as PUT /api/payout-account): only an owner, and only with their password
 * (and second factor) entered again in the last 10 minutes (sudo mode, checked by `authorized`), so a stolen
 * session cannot redirect the money. The IBAN is shown only as its last 4 again; replacing an account mails
 * every owner and holds payouts (DESIGN.md).
 */
export async function savePayoutAccount(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payout_account:write", async ({ merchantId, actor }) => {
    const values = { account_holder: formText(formData, "account_holder"), iban: formText(formData, "iban") };
    try {
      const account = await setPayoutAccount(getDb(), merchantId, values, actor);
      if (account.unchanged)
        return { ok: true, message: `Payouts already go to the account ending ${account.iban_last4}.` };
      if (account.replaced_last4 !== null) await notifyOwnersOfChange(getDb(), merchantId, account, actor);
      revalidatePath("/dashboard", "layout");
      const held = payoutsHeld(account)
        ? ` They start at ${readableTime(account.payouts_start_at!, formText(formData, "time_zone"))}; every owner was emailed.`
        : "";
      return { ok: true, message: `Payouts now go to the account ending ${account.iban_last4}.${held}` };
    } catch (error) {
      // What was typed stays in the form, to correct rather than retype (the user's own input; never the password).
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
