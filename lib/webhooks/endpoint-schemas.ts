import { z } from "zod";
import { ENDPOINT_KINDS } from "@/db/enums";
import { DISPUTE_EVENT_TYPES } from "@/lib/disputes/schemas";
import { PAYMENT_EVENT_TYPES } from "@/lib/payments/schemas";
import { PAYOUT_EVENT_TYPES } from "@/lib/payouts/schemas";
import { jsonNumber, messages, stringField } from "@/lib/platform/validation";
import { REFUND_EVENT_TYPES } from "@/lib/refunds/schemas";

/** Sent to a merchant's other endpoints when the platform disables one (410 Gone, or failing for 5 days). */
export const ENDPOINT_DISABLED_EVENT = "webhook_endpoint.disabled";

/** The events about money: payment and refund transitions. A test event can be sent for each. */
export const MONEY_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const;
export type MoneyEventType = (typeof MONEY_EVENT_TYPES)[number];

/**
 * Every event an endpoint can subscribe to: payments', refunds', payouts' and disputes' transitions, and
 * operational events.
 */
export const WEBHOOK_EVENT_TYPES = [
  ...MONEY_EVENT_TYPES,
  ...PAYOUT_EVENT_TYPES,
  ...DISPUTE_EVENT_TYPES,
  ENDPOINT_DISABLED_EVENT,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * A new endpoint's events unless chosen: the payment, refund, payout and dispute events; operational events
 * are opted into. Endpoints made before refunds (or payouts, disputes) existed keep their list, and subscribe
 * by editing it.
 */
export const DEFAULT_EVENT_TYPES: readonly WebhookEventType[] = [
  ...MONEY_EVENT_TYPES,
  ...PAYOUT_EVENT_TYPES,
  ...DISPUTE_EVENT_TYPES,
];

/** http(s) only, no credentials, at most 2048 characters. Private addresses are refused at send time. */
export const webhookUrlSchema = stringField("url", { max: 2048, required: true }).superRefine(
  (value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: messages.url("url") });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: "The url field must start with https:// or http://." });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "The url field must not contain a user name or password." });
    }
  },
);

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: messages.in("events") }), { error: messages.in("events") })
  .min(1, "Choose at least one event type.")
  .transform((types) => [...new Set(types)]);

/**
 * A URL endpoint needs its url; an inbox has none (it is captured inside the platform), so one sent with an
 * inbox is refused rather than silently ignored.
 */
export const createEndpointSchema = z
  .object({
    kind: z.enum(ENDPOINT_KINDS, { error: messages.in("kind") }).default("url"),
    url: webhookUrlSchema.optional(),
    description: stringField("description", { max: 255 }).trim().optional(),
    events: eventTypes.default([...DEFAULT_EVENT_TYPES]),
  })
  .superRefine((data, ctx) => {
    if (data.kind === "url" && data.url === undefined)
      ctx.addIssue({ code: "custom", path: ["url"], message: messages.required("url") });
    if (data.kind === "inbox" && data.url !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message: "An inbox has no url: it captures deliveries inside the platform. Leave url out.",
      });
  });

/** The highest count of chosen answers: enough for any retry schedule, small enough to be a mistake past it. */
const MAX_INBOX_RESPONSE_COUNT = 1000;

const countMessage = `The inbox_response.count field must be an integer from 1 to ${MAX_INBOX_RESPONSE_COUNT}.`;
const statusMessage = "The inbox_response.status field must be an integer from 200 to 599.";
const inboxResponseMessage =
  'The inbox_response field must be null, {"status": 200-599, "count": n} or {"timeout": true, "count": n}; count is optional.';

/** What an inbox answers next: a status, or a timeout; for `count` deliveries or until changed. null resets to 200. */
export const inboxResponseSchema = z
  .strictObject(
    {
      status: jsonNumber(
        z
          .number({ error: statusMessage })
          .int({ error: statusMessage })
          .min(200, statusMessage)
          .max(599, statusMessage),
      ).optional(),
      timeout: z.literal(true, { error: "The inbox_response.timeout field must be true." }).optional(),
      count: jsonNumber(
        z
          .number({ error: countMessage })
          .int({ error: countMessage })
          .min(1, countMessage)
          .max(MAX_INBOX_RESPONSE_COUNT, countMessage),
      ).optional(),
    },
    { error: inboxResponseMessage },
  )
  .refine((value) => (value.status === undefined) !== (value.timeout === undefined), {
    message: "The inbox_response field takes either a status or a timeout.",
  })
  .nullable();
export type InboxResponse = z.infer<typeof inboxResponseSchema>;

/** Every field optional: the dashboard's edit form sends all three, the API's PATCH any of them. */
export const updateEndpointSchema = z.object({
  url: webhookUrlSchema.optional(),
  description: stringField("description", { max: 255 }).trim().optional(),
  events: eventTypes.optional(),
  inbox_response: inboxResponseSchema.optional(),
});

export const testEventSchema = z.object({
  event: z.enum(MONEY_EVENT_TYPES, { error: messages.in("event") }),
});
