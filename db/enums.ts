// The value lists of the schema's enum columns: the one definition, read by db/schema/ and by the domain's
// validation and labels. No imports, so browser code can use them too.

/** owner: everything, members included; developer: keys, webhooks, test payments; viewer: read-only, no secret shown. */
export const USER_ROLES = ["owner", "developer", "viewer"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** An account key's one scope (`pay_acct_…`): makes, lists and deletes the account's sandboxes, nothing else. */
export const ACCOUNT_KEY_SCOPE = "sandboxes";
/** What a key's `scope` column holds: an environment's key's scope, or an account key's. */
export const KEY_SCOPES = [...TOKEN_SCOPES, ACCOUNT_KEY_SCOPE] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** A merchant account's environments (DESIGN.md, "Live and sandboxes"): one live, any number of sandboxes. */
export const ENVIRONMENT_KINDS = ["live", "sandbox"] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

/** Who takes an environment's payments (DESIGN.md, "Processors"): the simulator, or a processor its owners connected. */
export const PROCESSORS = ["simulator", "mollie", "stripe"] as const;
export type Processor = (typeof PROCESSORS)[number];
export const CONNECTED_PROCESSORS = ["mollie", "stripe"] as const;
export type ConnectedProcessor = (typeof CONNECTED_PROCESSORS)[number];

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

/** What moved a merchant's money (DESIGN.md, "Balance transactions"): debits are negative amounts. */
export const BALANCE_TRANSACTION_TYPES = [
  "payment",
  "refund",
  "refund_failure",
  "dispute",
  "dispute_won",
  "payout",
  "payout_failure",
  // A payout of part carries the oldest transactions until they reach its amount: what the last brought past
  // it is carried forward (on that payout) and brought forward (for the next), a pair netting to nothing.
  "carried_forward",
  "brought_forward",
  "adjustment",
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** `pending` until its available_on, then `available` (moved by the releaser). */
export const BALANCE_TRANSACTION_STATUSES = ["pending", "available"] as const;
export type BalanceTransactionStatus = (typeof BALANCE_TRANSACTION_STATUSES)[number];

/**
 * The ledger's accounts, each per merchant and currency. The merchant's: `pending` (not yet available),
 * `available`, `in_transit` (paid out, not yet arrived). The platform's side of each movement: `clearing`
 * (what the processor owes, or is owed, for this merchant's payments), `fees` (what the platform earned), and
 * `bank` (what left for the merchant's bank account).
 */
export const LEDGER_ACCOUNTS = [
  "pending",
  "available",
  "in_transit",
  "clearing",
  "fees",
  "bank",
  // Between a carried_forward and its brought_forward: always 0 once both are posted (in one transaction).
  "forward",
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** `pending` → `in_transit` → `paid` | `failed`; `canceled` while pending (DESIGN.md, "Payouts"). */
export const PAYOUT_STATUSES = ["pending", "in_transit", "paid", "failed", "canceled"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A payout account is `errored` after a payout failed on it (closed): payouts wait until it is replaced. */
export const PAYOUT_ACCOUNT_STATUSES = ["active", "errored"] as const;

/** Settings → Payouts: daily at 00:00 UTC (the default), weekly (Mondays), or only when asked. */
export const PAYOUT_SCHEDULES = ["daily", "weekly", "manual"] as const;
export type PayoutSchedule = (typeof PAYOUT_SCHEDULES)[number];

/**
 * A dispute's lifecycle (DESIGN.md, "Disputes"). An inquiry: `warning_needs_response` → `warning_under_review`
 * → `warning_closed`, moving no money. A chargeback: `needs_response` → `under_review` → `won` | `lost`.
 */
export const DISPUTE_STATUSES = [
  "warning_needs_response",
  "warning_under_review",
  "warning_closed",
  "needs_response",
  "under_review",
  "won",
  "lost",
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
/** Decided: nothing more can be submitted or accepted (409). */
export const DISPUTE_CLOSED: readonly DisputeStatus[] = ["warning_closed", "won", "lost"];

/** Why the payer's bank disputes a payment, as Stripe lists the common ones. */
export const DISPUTE_REASONS = [
  "fraudulent",
  "product_not_received",
  "product_unacceptable",
  "duplicate",
  "subscription_canceled",
  "credit_not_processed",
  "unrecognized",
  "general",
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** The evidence a merchant answers with: texts of up to 20,000 characters each. */
export const DISPUTE_EVIDENCE_FIELDS = [
  "product_description",
  "customer_name",
  "customer_email",
  "customer_communication",
  "receipt",
  "shipping_tracking_number",
  "refund_policy",
  "uncategorized_text",
] as const;
export type DisputeEvidenceField = (typeof DISPUTE_EVIDENCE_FIELDS)[number];
