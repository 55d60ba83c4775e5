import { z } from "zod";
import { PAYMENT_FAILURE_CODES, PROCESSORS, PAYMENT_STATUSES, REFUND_STATES } from "@/db/enums";
import { amountSchema } from "@/lib/money/amount";
import { currencyField } from "@/lib/money/currencies";
import {
  createdBound,
  createdRangeInOrder,
  pageQuerySchema,
  queryChoice,
  queryText,
} from "@/lib/platform/list-query";
import { characterCount, isStorableText, messages, stringField } from "@/lib/platform/validation";

export const PAYMENT_EVENT_TYPES = ["payment.pending", "payment.completed", "payment.failed"] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** Optional merchant identifier: absent or null means none; anything else must be a string of ≤ 255. */
function optionalIdentifier(field: string) {
  return stringField(field, { max: 255 })
    .nullish()
    .transform((value) => value ?? null);
}

/** A loopback host, where plain http is allowed even in production: a developer's own machine. */
function isLoopbackHost(hostname: string): boolean {
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(hostname) || hostname.endsWith(".localhost");
}

/**
 * Where the payer goes after paying at the checkout page: an absolute http(s) URL of at most 2,048
 * characters; in production https, or any URL on a loopback host (DESIGN.md, "Checkout").
 */
const returnUrlField = stringField("return_url", { max: 2048 })
  .superRefine((value, ctx) => {
    const url = URL.parse(value);
    if (!url || !["http:", "https:"].includes(url.protocol))
      ctx.addIssue({ code: "custom", message: messages.url("return_url") });
    else if (
      process.env.NODE_ENV === "production" &&
      url.protocol === "http:" &&
      !isLoopbackHost(url.hostname)
    )
      ctx.addIssue({ code: "custom", message: "The return url field must use https://." });
  })
  .nullish()
  .transform((value) => value ?? null)
  .meta({
    description:
      "Where the payer is sent after paying at `checkout_url`, with `payment_id` and `status` added to its query. https in production (plain http only on a loopback host). With it the payment waits for its payer: the simulator does not settle it.",
  });

export const METADATA_LIMITS = { keys: 20, keyLength: 40, valueLength: 500 };

/**
 * `metadata` on create: an object of at most 20 keys (each at most 40 characters) to string values (each at
 * most 500). A value's error names it as Laravel names a nested field: `metadata.order_ref`.
 */
const metadataField = z
  .unknown()
  .transform((value, ctx): Record<string, unknown> | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== "object" || Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: "The metadata field must be an object." });
      return z.NEVER;
    }
    const keys = Object.keys(value);
    if (keys.length > METADATA_LIMITS.keys)
      ctx.addIssue({
        code: "custom",
        message: `The metadata field must not have more than ${METADATA_LIMITS.keys} items.`,
      });
    if (keys.some((key) => characterCount(key) > METADATA_LIMITS.keyLength || !isStorableText(key)))
      ctx.addIssue({
        code: "custom",
        message: `The metadata field's keys must be text of at most ${METADATA_LIMITS.keyLength} characters.`,
      });
    for (const [key, each] of Object.entries(value)) {
      const message = metadataValueError(key, each);
      if (message) ctx.addIssue({ code: "custom", params: { field: `metadata.${key}` }, message });
    }
    return value as Record<string, unknown>;
  })
  .optional()
  .meta({
    description: `Your own key/value pairs: at most ${METADATA_LIMITS.keys} keys of at most ${METADATA_LIMITS.keyLength} characters, string values of at most ${METADATA_LIMITS.valueLength}. Returned as JSON text in \`metadata\`, with \`customer_id\` beside them (the field wins).`,
    type: "object",
    additionalProperties: { type: "string", maxLength: METADATA_LIMITS.valueLength },
    maxProperties: METADATA_LIMITS.keys,
  });

/** A metadata value's refusal, if any, in Laravel's words for the nested field `metadata.<key>`. */
function metadataValueError(key: string, value: unknown): string | undefined {
  const field = `metadata.${key}`;
  if (typeof value !== "string") return messages.string(field);
  if (characterCount(value) > METADATA_LIMITS.valueLength)
    return messages.maxLength(field, METADATA_LIMITS.valueLength);
  if (!isStorableText(value)) return messages.noNul(field);
  return undefined;
}

export const createPaymentSchema = z
  .object({
    amount: amountSchema,
    currency: currencyField(),
    external_id: optionalIdentifier("external_id"),
    customer_id: optionalIdentifier("customer_id"),
    metadata: metadataField,
    return_url: returnUrlField,
  })
  .transform(({ metadata, ...payment }) => ({
    ...payment,
    metadata: (metadata ?? null) as Record<string, string> | null,
  }));

/** An integer as Laravel's `integer` rule reads one (PHP's FILTER_VALIDATE_INT): no leading zeros. */
/**
 * `GET /api/payments`: the page, and the filters (DESIGN.md, "The API beyond the seed"). A bad value is a 422
 * naming its parameter; unknown parameters are ignored.
 */
export const listPaymentsQuerySchema = pageQuerySchema
  .extend({
    status: queryChoice("status", PAYMENT_STATUSES).describe("Only payments in this status."),
    external_id: queryText("external_id").describe("Only the payment(s) with this external id, exactly."),
    customer_id: queryText("customer_id").describe("Only this customer's payments."),
    refund_status: queryChoice("refund_status", REFUND_STATES).describe(
      "What succeeded refunds took: none, part (partial) or all (full) of the amount.",
    ),
    currency: currencyField().describe("Only payments in this currency (ISO 4217, any case)."),
    created_from: createdBound("created_from", "from").describe(
      "Created at or after: an ISO 8601 date (its start, UTC) or date-time (UTC unless it names an offset).",
    ),
    created_to: createdBound("created_to", "to").describe(
      "Created at or before: an ISO 8601 date (through its end, UTC) or date-time.",
    ),
  })
  .superRefine(createdRangeInOrder);

const paymentId = z.number().int().describe("Unique payment identifier.");
const createdAt = z.string().describe("Creation time, UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`.");

/** Exactly the fields of a list item; anything else a row carries is dropped. */
export const paymentListItemSchema = z.object({
  id: paymentId,
  external_id: z.string().nullable(),
  type: z.literal("payment"),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.string().describe('Exactly its currency\'s minor units: "12.50" EUR, "1500" JPY, "1.250" KWD.'),
  currency: z.string().describe('ISO 4217, upper case: "EUR".'),
  created_at: createdAt,
});
export type PaymentListItem = z.infer<typeof paymentListItemSchema>;

/** The card a payer paid (or was declined) with at the checkout: never its number or CVC. */
export const paymentMethodSchema = z
  .object({
    type: z.literal("card"),
    brand: z.string().describe('"visa", "mastercard", …'),
    last4: z.string().describe("The card number's last four digits."),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
  })
  .describe("The card it was paid with at its checkout page; null when no payer paid it.");

/** A full payment: retrieve one, and a webhook event's `data`. */
export const paymentSchema = z.object({
  ...paymentListItemSchema.omit({ created_at: true }).shape,
  metadata: z.string().nullable().describe('JSON text, e.g. "{\\"customer_id\\":\\"cus_1\\"}", or null.'),
  customer_id: z
    .string()
    .nullable()
    .describe("The customer id it was created with (also in `metadata`), or null."),
  created_at: createdAt,
  checkout_url: z
    .string()
    .nullable()
    .describe(
      "The hosted page a payer pays it on, while pending: `{APP_URL}/pay/{token}`, or the processor's own page (Mollie's checkout, Stripe Checkout) for a payment taken by a processor. Null once final.",
    ),
  payment_method: paymentMethodSchema.nullable(),
  failure_code: z
    .enum(PAYMENT_FAILURE_CODES)
    .nullable()
    .describe(
      "Why it failed, for your program: `card_declined`, `insufficient_funds`, `expired_card` (the card), `authentication_failed` (the payer failed authentication), `canceled` (you canceled it), `expired` (pending too long), `processor_declined` (the processor refused it, or it was marked failed by hand or by the test helper). Null unless failed.",
    ),
  failure_reason: z
    .string()
    .nullable()
    .describe("Why it failed, in words for people (as the dashboard shows them). Null unless failed."),
  fee: z
    .string()
    .nullable()
    .describe(
      "What was taken when it completed, in its currency's minor units: the platform's price (percent of the amount plus a fixed part, rounded half up), or for a processor's payment the fee the processor reports. Null until completed.",
    ),
  net: z.string().nullable().describe("amount − fee: what it added to your balance. Null until completed."),
  processor: z
    .enum(PROCESSORS)
    .describe(
      "Who takes it: `simulator` (a sandbox's test processor), or `mollie` or `stripe`, the processor its environment was connected to when it was made.",
    ),
  processor_payment_id: z
    .string()
    .nullable()
    .describe(
      "Its id at that processor (Mollie `tr_…`, a Stripe Checkout Session `cs_…`); null for the simulator.",
    ),
});
export type PaymentResource = z.infer<typeof paymentSchema>;

/** A payment as `GET /api/payments/{id}` returns it: the full payment, then what refunds have taken. */
export const retrievedPaymentSchema = paymentSchema.extend({
  amount_refunded: z
    .string()
    .describe('Sum of its succeeded refunds, in its currency\'s minor units ("0.00" when none).'),
  amount_refundable: z
    .string()
    .describe("What can still be refunded: amount − (pending + succeeded refunds); 0 unless completed."),
});
export type RetrievedPayment = z.infer<typeof retrievedPaymentSchema>;
