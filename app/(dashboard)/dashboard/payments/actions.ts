"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import { type FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { checkoutUrl } from "@/lib/payments/checkout-token";
import { createPayment } from "@/lib/payments/create-payment";
import { cancelPayment, settlePayment } from "@/lib/payments/settlement";
import { getEnv } from "@/lib/platform/env";
import { refundsAtProcessor } from "@/lib/processors/refunds";
import { createRefund } from "@/lib/refunds/create-refund";
import { settleRefund } from "@/lib/refunds/settlement";

/**
 * DESIGN.md, "Live and sandboxes": test helpers do not exist in live. Live payments come from the merchant's
 * backend through the API, and only their processor moves them.
 */
const LIVE_HAS_NO_TEST_PAYMENTS =
  "Test payments are made and settled in a sandbox: live payments come from your backend, and your processor settles them.";

/** Blank optional fields are absent, as an API client would leave them out. */
function text(formData: FormData, name: string): string | undefined {
  return formText(formData, name).trim() || undefined;
}

export type CreatedPaymentState = FormState & { paymentId?: number; checkoutUrl?: string };

/**
 * The dashboard's test payment: the same domain function and schema as POST /api/payments. "Wait for a payer"
 * keeps the simulator from settling it, so the merchant can pay it at its checkout page.
 */
export async function createTestPayment(
  _previous: CreatedPaymentState,
  formData: FormData,
): Promise<CreatedPaymentState> {
  return authorized("payments:write", async ({ merchantId, environment }) => {
    if (environment.kind === "live") return { message: LIVE_HAS_NO_TEST_PAYMENTS };
    const waitForPayer = formText(formData, "wait_for_payer") === "on";
    const values = {
      amount: text(formData, "amount") ?? "",
      currency: text(formData, "currency") ?? "",
      external_id: text(formData, "external_id") ?? "",
      customer_id: text(formData, "customer_id") ?? "",
      return_url: text(formData, "return_url") ?? "",
      wait_for_payer: waitForPayer ? "on" : "",
    };
    try {
      const { paymentId, checkoutToken } = await createPayment(
        getDb(),
        merchantId,
        {
          amount: text(formData, "amount"),
          currency: text(formData, "currency"),
          external_id: text(formData, "external_id"),
          customer_id: text(formData, "customer_id"),
          return_url: waitForPayer ? text(formData, "return_url") : undefined,
        },
        { source: "dashboard", autoSettleMs: getEnv().PAYMENTS_AUTO_SETTLE_MS, waitForPayer },
      );
      revalidatePath("/dashboard/payments");
      return {
        ok: true,
        paymentId,
        checkoutUrl: waitForPayer && checkoutToken ? checkoutUrl(checkoutToken) : undefined,
        message: waitForPayer
          ? `Payment ${paymentId} created. It waits for a payer at its checkout page.`
          : `Payment ${paymentId} created.`,
      };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function settle(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId, environment }) => {
    if (environment.kind === "live") return { message: LIVE_HAS_NO_TEST_PAYMENTS };
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

/** The dashboard's refund: the same domain function and schema as POST /api/payments/{id}/refunds. */
export async function refundPayment(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    const values = { amount: formText(formData, "amount"), reason: formText(formData, "reason") };
    try {
      const paymentId = formId(formData, "payment_id");
      const { refundId } = await createRefund(
        getDb(),
        merchantId,
        paymentId,
        { amount: text(formData, "amount"), reason: text(formData, "reason") },
        {
          autoSettleMs: getEnv().PAYMENTS_AUTO_SETTLE_MS,
          atProcessor: refundsAtProcessor(getDb(), merchantId),
        },
      );
      revalidatePath(`/dashboard/payments/${paymentId}`);
      return { ok: true, message: `Refund ${refundId} created.` };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function cancelPendingPayment(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId }) => {
    try {
      const paymentId = formId(formData, "payment_id");
      await cancelPayment(getDb(), paymentId, merchantId);
      revalidatePath(`/dashboard/payments/${paymentId}`);
      return { ok: true, message: "Payment canceled." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

/** Settles a test refund by hand, as a test payment is. */
export async function settleTestRefund(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("payments:write", async ({ merchantId, environment }) => {
    if (environment.kind === "live") return { message: LIVE_HAS_NO_TEST_PAYMENTS };
    const outcome = text(formData, "outcome");
    try {
      const refund = await settleRefund(getDb(), formId(formData, "refund_id"), { outcome }, merchantId);
      revalidatePath(`/dashboard/payments/${refund.payment_id}`);
      return { ok: true, message: `Refund ${refund.id} ${refund.status}.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
