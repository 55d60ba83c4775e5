import { z } from "zod";
import { DISPUTE_EVIDENCE_FIELDS, DISPUTE_REASONS, DISPUTE_STATUSES } from "@/db/enums";
import { pageQuerySchema, queryChoice, queryId } from "@/lib/platform/list-query";
import { messages, stringField } from "@/lib/platform/validation";

// What the API takes and gives for disputes (DESIGN.md, "Disputes"). No server code: the webhooks' event
// list, the OpenAPI document and the dashboard read it.

export const DISPUTE_EVENT_TYPES = [
  "dispute.created",
  "dispute.updated",
  "dispute.closed",
  "dispute.funds_withdrawn",
  "dispute.funds_reinstated",
] as const;
export type DisputeEventType = (typeof DISPUTE_EVENT_TYPES)[number];

/** Each evidence text: up to 20,000 characters (code points). */
export const EVIDENCE_MAX = 20_000;

const evidenceShape = Object.fromEntries(
  DISPUTE_EVIDENCE_FIELDS.map((field) => [
    field,
    stringField(field, { max: EVIDENCE_MAX }).nullable().optional(),
  ]),
) as Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>;

/** POST /api/disputes/{id}/evidence: any of the texts (null clears one); `submit: true` makes it final. */
export const disputeEvidenceInputSchema = z.object({
  ...evidenceShape,
  submit: z
    .boolean({
      error: (issue) => (issue.input === undefined ? undefined : `The submit field must be true or false.`),
    })
    .optional()
    .meta({ description: "true: submit it (final: the bank decides); left out or false: a draft." }),
});
export type DisputeEvidenceInput = z.infer<typeof disputeEvidenceInputSchema>;

const evidenceOutShape = Object.fromEntries(
  DISPUTE_EVIDENCE_FIELDS.map((field) => [field, z.string().nullable()]),
) as Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], z.ZodNullable<z.ZodString>>;

/** A dispute as the API returns it and its events carry it (DESIGN.md, "Disputes"), in this key order. */
export const disputeSchema = z.object({
  id: z.number().int(),
  payment_id: z.number().int(),
  amount: z.string().describe("What the bank took back, in its currency's minor units."),
  currency: z.string(),
  reason: z.enum(DISPUTE_REASONS),
  status: z.enum(DISPUTE_STATUSES),
  evidence: z.object(evidenceOutShape).describe("The answer so far: a draft until submitted."),
  evidence_due_by: z
    .string()
    .describe("The deadline, UTC: past it without a submission the dispute is lost."),
  is_refundable: z.literal(false).describe("A disputed payment cannot be refunded."),
  created_at: z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`."),
  closed_at: z.string().nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;

/** `GET /api/disputes`: the page, and `status`, `payment_id`. */
export const listDisputesQuerySchema = pageQuerySchema.extend({
  status: queryChoice("status", DISPUTE_STATUSES).describe("Only this status."),
  payment_id: queryId("payment_id").describe("Only this payment's (a payment has one at most)."),
});

/** POST /api/test-helpers/disputes/{id}/close `{outcome}`: the bank's decision, now. */
export const decideDisputeSchema = z.object({
  outcome: z.enum(["won", "lost"], {
    error: (issue) => (issue.input === undefined ? messages.required("outcome") : messages.in("outcome")),
  }),
});

/** POST /api/test-helpers/payments/{id}/dispute `{reason?, inquiry?}`: the payer's bank disputes it now. */
export const openDisputeSchema = z.object({
  reason: z.enum(DISPUTE_REASONS, { error: messages.in("reason") }).optional(),
  inquiry: z.boolean({ error: "The inquiry field must be true or false." }).optional(),
});
