import { z } from "zod";
import { PAYMENT_EVENT_TYPES } from "@/lib/payments/schemas";
import { messages, stringField } from "@/lib/platform/validation";
import { REFUND_EVENT_TYPES } from "@/lib/refunds/schemas";

/** Sent to a merchant's other endpoints when the platform disables one (410 Gone, or failing for 5 days). */
export const ENDPOINT_DISABLED_EVENT = "webhook_endpoint.disabled";

/** The events about money: payment and refund transitions. A test event can be sent for each. */
export const MONEY_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const;
export type MoneyEventType = (typeof MONEY_EVENT_TYPES)[number];

/** Every event an endpoint can subscribe to: the payment and refund transitions and the operational events. */
export const WEBHOOK_EVENT_TYPES = [...MONEY_EVENT_TYPES, ENDPOINT_DISABLED_EVENT] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * A new endpoint's events unless chosen: the payment and refund events; operational events are opted into.
 * Endpoints made before refunds existed keep their list, and subscribe to refunds by editing it.
 */
export const DEFAULT_EVENT_TYPES: readonly WebhookEventType[] = MONEY_EVENT_TYPES;

/** http(s) only, no credentials, at most 2048 characters. Private addresses are refused at send time. */
export const webhookUrlSchema = stringField("url", { max: 2048 })
  .trim()
  .min(1, messages.required("url"))
  .superRefine((value, ctx) => {
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
  });

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: messages.in("events") }), { error: messages.in("events") })
  .min(1, "Choose at least one event type.")
  .transform((types) => [...new Set(types)]);

export const createEndpointSchema = z.object({
  url: webhookUrlSchema,
  description: stringField("description", { max: 255 }).trim().optional(),
  events: eventTypes.default([...DEFAULT_EVENT_TYPES]),
});

/** Every field optional: the dashboard's edit form sends all three, the API's PATCH any of them. */
export const updateEndpointSchema = z.object({
  url: webhookUrlSchema.optional(),
  description: stringField("description", { max: 255 }).trim().optional(),
  events: eventTypes.optional(),
});

export const testEventSchema = z.object({
  event: z.enum(MONEY_EVENT_TYPES, { error: messages.in("event") }),
});
