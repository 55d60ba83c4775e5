"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import { type FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { getEnv } from "@/lib/platform/env";

/** Blank optional fields are absent, as an API client would leave them out. */
function text(formData: FormData, name: string): string | undefined {
  return formText(formData, name).trim() || undefined;
}

export type CreatedPaymentState = FormState & { paymentId?: number };

/** The dashboard's test payment: the same domain function and schema as POST /api/payments. */
export async function createTestPayment(
  _previous: CreatedPaymentState,
  formData: FormData,
): Promise<CreatedPaymentState> {
  return authorized("payments:write", async ({ merchantId }) => {
    const values = {
      amount: text(formData, "amount") ?? "",
      external_id: text(formData, "external_id") ?? "",
      customer_id: text(formData, "customer_id") ?? "",
    };
    try {
      const { paymentId } = await createPayment(
        getDb(),
        merchantId,
        {
          amount: text(formData, "amount"),
          external_id: text(formData, "external_id"),
          customer_id: text(formData, "customer_id"),
        },
        { source: "dashboard", autoSettleMs: getEnv().PAYMENTS_AUTO_SETTLE_MS },
      );
      revalidatePath("/dashboard/payments");
      return { ok: true, paymentId, message: `Payment ${paymentId} created.` };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function settle(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    const outcome = text(formData, "outcome");
    try {
      const paymentId = formId(formData, "payment_id");
      await settlePayment(getDb(), paymentId, { outcome }, merchantId);
      revalidatePath(`/dashboard/payments/${paymentId}`);
      return { ok: true, message: outcome === "completed" ? "Marked as paid." : "Marked as failed." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
