import { z } from "zod";
import { PAYOUT_STATUSES } from "@/db/enums";
import { amountField } from "@/lib/money/amount";
import { currencyField } from "@/lib/money/currencies";
import { messages } from "@/lib/platform/validation";

// What the API takes and gives for payouts (DESIGN.md, "Payouts"). No server code: the webhooks' event list
// and the dashboard read it.

export const PAYOUT_EVENT_TYPES = [
  "payout.created",
  "payout.paid",
  "payout.failed",
  "payout.canceled",
] as const;

export const createPayoutSchema = z.object({
  /** Required (createPayout says so: zod never runs a schema that takes undefined on an absent key). */
  currency: currencyField(),
  amount: amountField({ positive: true }).optional().meta({
    description: "Left out: all that is available in the currency.",
  }),
});

/** A payout as the API returns it and its events carry it (DESIGN.md, "Payouts"), in this key order. */
export const payoutSchema = z.object({
  id: z.number().int(),
  amount: z.string().describe("In its currency's minor units."),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  arrival_date: z.string().describe("When it is expected in the bank account: `YYYY-MM-DD` (UTC)."),
  destination_last4: z.string().describe("The payout account's IBAN's last four characters."),
  failure_reason: z.string().nullable(),
  created_at: z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`."),
});
/** Whether a payout is still on its way or arrived: a failed or canceled one arrives nowhere (no date shown). */
export const payoutArrives = (payout: { status: string }) =>
  payout.status !== "failed" && payout.status !== "canceled";

export type Payout = z.infer<typeof payoutSchema>;

export const settlePayoutSchema = z.object({
  outcome: z.enum(["paid", "failed"], { error: messages.in("outcome") }).optional(),
});
