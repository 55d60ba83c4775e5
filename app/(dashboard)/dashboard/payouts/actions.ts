"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { formatMoney } from "@/components/format";
import { getDb } from "@/db/client";
import { cancelPayout, createPayout } from "@/lib/payouts/payouts";
import { getEnv } from "@/lib/platform/env";
import { recorded } from "@/lib/security/history";

/** "Pay out": all that is available in the currency, or the amount typed (as POST /api/payouts). */
export async function payOut(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payouts:write", async ({ merchantId, actor }) => {
    const values = { currency: formText(formData, "currency"), amount: formText(formData, "amount").trim() };
    try {
      // Recorded in the security history with the payout, in one transaction.
      const { payout } = await createPayout(
        getDb(),
        merchantId,
        { currency: values.currency, ...(values.amount ? { amount: values.amount } : {}) },
        { autoSettleMs: getEnv().PAYMENTS_AUTO_SETTLE_MS, by: actor },
      );
      revalidatePath("/dashboard", "layout");
      return {
        ok: true,
        message: `Payout of ${formatMoney(payout.amount, payout.currency)} created: it arrives by ${payout.arrival_date}.`,
      };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

/** Cancel a pending payout: its money is available again. */
export async function cancelPayoutAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payouts:write", async ({ merchantId, actor }) => {
    try {
      const payout = await recorded(
        getDb(),
        merchantId,
        actor,
        "payout.canceled",
        (tx) => cancelPayout(tx, merchantId, formId(formData, "payout_id")),
        (canceled) => `payout ${canceled.id}: ${canceled.amount} ${canceled.currency}`,
      );
      revalidatePath("/dashboard", "layout");
      return {
        ok: true,
        message: `Payout canceled: ${formatMoney(payout.amount, payout.currency)} is available again.`,
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
