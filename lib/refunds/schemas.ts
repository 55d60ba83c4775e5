import { z } from "zod";
import { REFUND_REASONS, REFUND_STATUSES } from "@/db/enums";
import { amountField } from "@/lib/money/amount";
import { pageQuerySchema, queryChoice, queryId } from "@/lib/platform/list-query";
import { messages, requiredChoice, stringField } from "@/lib/platform/validation";

export const REFUND_EVENT_TYPES = ["refund.created", "refund.succeeded", "refund.failed"] as const;
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

/** `amount` as on a payment, but more than 0; left out, everything still refundable is refunded. */
const refundAmountSchema = amountField({ positive: true }).optional().meta({
  description:
    "Amount to refund, as a payment's amount but greater than 0. Left out: all that is still refundable.",
});

export const createRefundSchema = z.object({
  amount: refundAmountSchema,
  reason: z
    .enum(REFUND_REASONS, { error: messages.inChoices("reason", REFUND_REASONS) })
    .nullish()
    .transform((reason) => reason ?? null),
  external_id: stringField("external_id", { max: 255 })
    .nullish()
    .transform((value) => value ?? null),
});
export type CreateRefundInput = z.output<typeof createRefundSchema>;

/** `GET /api/refunds`: the page, and `status` and `payment_id` filters (422 naming a bad one). */
export const listRefundsQuerySchema = pageQuerySchema.extend({
  status: queryChoice("status", REFUND_STATUSES).describe("Only refunds in this status."),
  payment_id: queryId("payment_id").describe("Only this payment's refunds."),
});

export const settleRefundSchema = z.object({
  outcome: requiredChoice("outcome", ["succeeded", "failed"]),
});

const money = z.string().describe('In its payment\'s currency\'s minor units: "12.50" EUR, "1500" JPY.');
const timestamp = z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`.");

/** A refund as the API returns it and a refund event carries it, in this key order. */
export const refundSchema = z.object({
  id: z.number().int(),
  payment_id: z.number().int(),
  amount: money,
  currency: z.string().describe("Its payment's, ISO 4217."),
  status: z.enum(REFUND_STATUSES),
  reason: z.enum(REFUND_REASONS).nullable(),
  external_id: z.string().nullable(),
  failure_reason: z.string().nullable().describe("Why it failed, in words for the merchant; null otherwise."),
  created_at: timestamp,
  settled_at: timestamp.nullable().describe("When it succeeded or failed; null while pending."),
});
export type RefundResource = z.infer<typeof refundSchema>;
