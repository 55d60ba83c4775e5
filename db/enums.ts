// The value lists of the schema's enum columns: the one definition, read by db/schema/ and by the domain's
// validation and labels. No imports, so browser code can use them too.

/** owner: everything, members included; developer: keys, webhooks, test payments; viewer: read-only, no secret shown. */
export const USER_ROLES = ["owner", "developer", "viewer"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const PAYMENT_STATUSES = ["pending", "completed", "failed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Why a payment failed, as a code a merchant's program can branch on (DESIGN.md, "Why it failed"): the test
 * cards' declines, a failed authentication, a cancel, an expiry, and `processor_declined` for the rest (the
 * simulator's failing amounts, a payment marked failed by hand or by the test helper).
 */
export const PAYMENT_FAILURE_CODES = [
  "card_declined",
  "insufficient_funds",
  "expired_card",
  "authentication_failed",
  "canceled",
  "expired",
  "processor_declined",
] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

/** Where a payment was created: the API, the dashboard (a test payment), the admin CLI or a payment link. */
export const PAYMENT_SOURCES = ["api", "dashboard", "cli", "link"] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A refund is `pending` until the processor settles it; `failed` gives its amount back to the payment. */
export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** What a payment's succeeded refunds took: nothing, part of its amount, or all of it (the list's refund_status). */
export const REFUND_STATES = ["none", "partial", "full"] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/** Why a merchant refunds, as Stripe lists it. */
export const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer", "other"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** `url`: sent over the network; `inbox`: captured inside the platform, for QA without a server. */
export const ENDPOINT_KINDS = ["url", "inbox"] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];
