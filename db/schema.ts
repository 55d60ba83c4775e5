import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  json,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import {
  DELIVERY_STATUSES,
  ENDPOINT_KINDS,
  PAYMENT_FAILURE_CODES,
  PAYMENT_SOURCES,
  PAYMENT_STATUSES,
  REFUND_REASONS,
  REFUND_STATES,
  REFUND_STATUSES,
  TOKEN_SCOPES,
  USER_ROLES,
} from "./enums";

// Shared column helpers, so every table spells ids and timestamps the same way.
const id = () => bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity();
/** A partitioned table's id: its primary key must include the partition key, so it is declared with it. */
const partitionedId = () => bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity();
const merchantId = () =>
  bigint("merchant_id", { mode: "number" })
    .notNull()
    .references(() => merchants.id, { onDelete: "cascade" });
const createdAt = () => timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const merchants = pgTable("merchants", {
  id: id(),
  name: text("name").notNull(),
  /** "Contact support" override of the API rate limit (requests per minute per token); null = default. */
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  /**
   * How many payments the merchant has. Incremented under a row lock when a payment is created, so it is
   * also the dense per-merchant sequence that makes any list page an index range, not an OFFSET scan.
   */
  paymentsCount: bigint("payments_count", { mode: "number" }).notNull().default(0),
  /** ISO 4217 code the dashboard prints beside amounts ("1,250.00 EUR"); null = none. The API never uses it. */
  displayCurrency: text("display_currency"),
  /** Set by an owner: every member must sign in with a second factor (those without one enrol first). */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const users = pgTable(
  "users",
  {
    id: id(),
    merchantId: merchantId(),
    /** Stored lower-cased; unique across the platform because it is the login name. */
    email: text("email").notNull(),
    name: text("name"),
    /** scrypt, self-describing: `scrypt$N$r$p$salt$hash`. */
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull().default("owner"),
    /** TOTP (RFC 6238) secret, encrypted (lib/platform/encryption.ts); null = no second factor. */
    totpSecretCiphertext: text("totp_secret_ciphertext"),
    /** A secret shown for enrolment, kept until confirmed with a code. */
    totpPendingCiphertext: text("totp_pending_ciphertext"),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** SHA-256 of each unused recovery code (high-entropy random codes: a fast hash is enough). */
    recoveryCodeHashes: text("recovery_code_hashes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    lastSignInAt: at("last_sign_in_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_idx").on(t.email), index("users_merchant_idx").on(t.merchantId)],
);

/**
 * A dashboard sign-in. The session cookie (a next-auth JWT) carries `session_key`, and every page and action
 * checks that the row still exists, so deleting it ends the session at once (logout, password change, 2FA).
 * The key is random and useless without AUTH_SECRET, which signs the cookie, so it is stored as it is.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: id(),
    sessionKey: text("session_key").notNull(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    merchantId: merchantId(),
    /** The client address and browser of the last use (written at most once a minute). */
    ip: text("ip").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("user_sessions_session_key_idx").on(t.sessionKey),
    index("user_sessions_user_idx").on(t.userId),
    index("user_sessions_last_used_idx").on(t.lastUsedAt),
  ],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    merchantId: merchantId(),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the whole token; the plaintext is never stored. */
    tokenHash: text("token_hash").notNull(),
    /** Safe to show: the prefix and the last four characters, e.g. `pay_…a1B2`. */
    displayHint: text("display_hint").notNull(),
    scope: text("scope", { enum: TOKEN_SCOPES }).notNull().default("write"),
    expiresAt: at("expires_at"),
    /** Revocation time; may be in the future when a rolled token keeps working for a grace period. */
    revokedAt: at("revoked_at"),
    /** Refreshed at most about once a minute, never on every request. */
    lastUsedAt: at("last_used_at"),
    /** The token this one replaced by a roll, if any. */
    rolledFromId: bigint("rolled_from_id", { mode: "number" }),
    /** When it was first refused with a 429 (the Developers page says so): written once, never per request. */
    firstLimitedAt: at("first_limited_at"),
    /** Its latest 429, written at most once a minute: the Overview's notice lasts until 24 hours after it. */
    lastLimitedAt: at("last_limited_at"),
    /** Where its current run of 429s began: the first after 24 hours without one, or under a new limit. */
    limitedSince: at("limited_since"),
    /** The per-minute limit those 429s enforced: once the limit is raised, the Overview's notice goes. */
    limitedPerMinute: integer("limited_per_minute"),
    /** When a member dismissed the Overview's notice of the current run; the next run shows it again. */
    limitNoticeDismissedAt: at("limit_notice_dismissed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_tokens_token_hash_idx").on(t.tokenHash),
    index("api_tokens_merchant_idx").on(t.merchantId, t.createdAt.desc()),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: id(),
    merchantId: merchantId(),
    /** Dense 1..n per merchant in creation order (see merchants.payments_count). */
    merchantSeq: bigint("merchant_seq", { mode: "number" }).notNull(),
    externalId: text("external_id"),
    customerId: text("customer_id"),
    type: text("type", { enum: ["payment"] })
      .notNull()
      .default("payment"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    /** JSON text, returned to merchants verbatim (e.g. `{"customer_id":"cus_1"}`), or null. */
    metadata: text("metadata"),
    /** Where it was created: the API, the dashboard (test payment) or the admin CLI. */
    source: text("source", { enum: PAYMENT_SOURCES }).notNull().default("api"),
    /** When the simulated processor settles it; null when automatic settlement is off. */
    settleAt: at("settle_at"),
    settledAt: at("settled_at"),
    /** Why it failed, in words for the merchant (the processor's reason, or "marked by hand"); null otherwise. */
    failureReason: text("failure_reason"),
    /** The same as a code (PAYMENT_FAILURE_CODES) a merchant's program can branch on; null unless failed. */
    failureCode: text("failure_code", { enum: PAYMENT_FAILURE_CODES }),
    /**
     * The card it was paid (or declined) with at its checkout: `{type, brand, last4, exp_month, exp_year}`,
     * never the number or the CVC; null for a payment no payer paid.
     */
    paymentMethod: json("payment_method").$type<PaymentMethod>(),
    /**
     * Sums of its refunds by state, kept by the statements that create and settle refunds under this row's
     * lock: refundable = amount - refunded - refund_pending, never a sum over refunds on the money path.
     */
    amountRefunded: numeric("amount_refunded", { precision: 14, scale: 2 }).notNull().default("0"),
    amountRefundPending: numeric("amount_refund_pending", { precision: 14, scale: 2 }).notNull().default("0"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payments_merchant_seq_idx").on(t.merchantId, t.merchantSeq),
    // Plain DESC (nulls first, PostgreSQL's default for DESC) so `order by created_at desc, id desc` uses them.
    index("payments_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("payments_merchant_status_created_idx").on(
      t.merchantId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The dashboard's search: external id by case-insensitive prefix, customer id exactly.
    index("payments_merchant_external_id_prefix_idx").on(
      t.merchantId,
      sql`lower(${t.externalId}) text_pattern_ops`,
    ),
    // A customer's payments, newest first (the customer_id filter, a customer's page, the search box).
    index("payments_merchant_customer_created_idx").on(
      t.merchantId,
      t.customerId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("payments_settle_at_idx")
      .on(t.settleAt)
      .where(sql`status = 'pending'`),
    // The expirer's pending payments older than PAYMENTS_PENDING_EXPIRE_AFTER.
    index("payments_pending_created_idx")
      .on(t.createdAt)
      .where(sql`status = 'pending'`),
  ],
);

/** What a payment's `payment_method` holds: the card, without its number or CVC. */
export type PaymentMethod = {
  type: "card";
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
};

/**
 * A payment's hosted page (`{APP_URL}/pay/{token}`), one per payment, made with it. Apart from the payment
 * row so the payments table, which every list reads, stays narrow.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    paymentId: bigint("payment_id", { mode: "number" })
      .primaryKey()
      .references(() => payments.id, { onDelete: "cascade" }),
    merchantId: merchantId(),
    /** SHA-256 (hex) of the page's token, which is how a payer's request finds it. */
    tokenHash: text("token_hash").notNull(),
    /** The token, encrypted (ENCRYPTION_KEYS): the merchant reads `checkout_url` back while it is pending. */
    tokenCiphertext: text("token_ciphertext").notNull(),
    /** Where the payer goes after paying (with `payment_id` and `status` added); null: the page says. */
    returnUrl: text("return_url"),
    paymentLinkId: bigint("payment_link_id", { mode: "number" }).references(() => paymentLinks.id),
    /** Card numbers refused for not being test cards (a card tester's probes; test-card declines are not counted); 5 lock the page. */
    declinedAttempts: integer("declined_attempts").notNull().default(0),
    /** The card waiting at the authentication step, without its number; null when none is. */
    authentication: json("authentication").$type<PaymentMethod>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("checkouts_token_hash_idx").on(t.tokenHash),
    index("checkouts_payment_link_idx")
      .on(t.paymentLinkId)
      .where(sql`payment_link_id is not null`),
  ],
);

/** A link a merchant shares (`{APP_URL}/l/{slug}`): each payer who opens it gets a payment of its own. */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: id(),
    merchantId: merchantId(),
    /** The link's public part: random, so links cannot be guessed. */
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    description: text("description"),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payment_links_slug_idx").on(t.slug),
    index("payment_links_merchant_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * Count and volume of a merchant's payments per creation day (UTC) and status, kept in the same statements
 * that create and settle payments, so the Overview reads a few hundred rows instead of every payment.
 */
export const paymentDailyTotals = pgTable(
  "payment_daily_totals",
  {
    merchantId: merchantId(),
    /**
     * Whose payments the row counts: '' for all of the merchant's, or one customer id's (the same statements
     * keep both), so a list filtered by customer counts and seeks like an unfiltered one.
     */
    customerId: text("customer_id").notNull().default(""),
    day: date("day").notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    /**
     * What succeeded refunds took: none, part or all of the amount (moved by the statement that settles a
     * refund). With it the list filters count, and seek to a deep page, from this table (lib/payments/list.ts).
     */
    refundState: text("refund_state", { enum: REFUND_STATES }).notNull().default("none"),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    volume: numeric("volume", { precision: 20, scale: 2 }).notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.customerId, t.day, t.status, t.refundState] })],
);

/**
 * What succeeded refunds took per UTC day of their success, kept by the statement that settles a refund: the
 * Overview's refunded figure and its chart's refunds read a row per day, not every refund.
 */
export const refundDailyTotals = pgTable(
  "refund_daily_totals",
  {
    merchantId: merchantId(),
    day: date("day").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    amount: numeric("amount", { precision: 20, scale: 2 }).notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.day] })],
);

/**
 * How many refunds were made per UTC day of their creation, by status, kept by the statements that create and
 * settle refunds: the refunds list counts its total, and finds the day a deep page starts in, from a row per
 * day instead of every refund (lib/refunds/queries.ts).
 */
export const refundDailyCounts = pgTable(
  "refund_daily_counts",
  {
    merchantId: merchantId(),
    /** Whose refunds the row counts: '' for all of the merchant's, or one customer id's (as payment_daily_totals). */
    customerId: text("customer_id").notNull().default(""),
    day: date("day").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.customerId, t.day, t.status] })],
);

/**
 * One row per customer id a merchant has used, kept by the statements that create and settle payments and
 * refunds (as the daily totals are): the Customers page and API read it instead of scanning payments.
 */
export const customers = pgTable(
  "customers",
  {
    merchantId: merchantId(),
    customerId: text("customer_id").notNull(),
    paymentsCount: bigint("payments_count", { mode: "number" }).notNull().default(0),
    /** Sum of its completed payments. */
    completedVolume: numeric("completed_volume", { precision: 20, scale: 2 }).notNull().default("0"),
    /** Sum of its succeeded refunds. */
    refunded: numeric("refunded", { precision: 20, scale: 2 }).notNull().default("0"),
    firstPaymentAt: at("first_payment_at").notNull(),
    lastPaymentAt: at("last_payment_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.customerId] }),
    index("customers_merchant_last_payment_idx").on(
      t.merchantId,
      t.lastPaymentAt.desc().nullsFirst(),
      t.customerId.desc().nullsFirst(),
    ),
    // The search box's customer id prefix (`cus_b` finds `cus_big`): a range that text_pattern_ops serves.
    index("customers_merchant_customer_prefix_idx").on(t.merchantId, sql`${t.customerId} text_pattern_ops`),
  ],
);

/** Money given back on a completed payment, in part or whole (DESIGN.md, "Refunds and cancellation"). */
export const refunds = pgTable(
  "refunds",
  {
    id: id(),
    merchantId: merchantId(),
    paymentId: bigint("payment_id", { mode: "number" })
      .notNull()
      .references(() => payments.id),
    /** Its payment's customer id (a payment's never changes), so a customer's refunds are an index range. */
    customerId: text("customer_id"),
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    reason: text("reason", { enum: REFUND_REASONS }),
    externalId: text("external_id"),
    /** Why it failed, in words for the merchant; null otherwise. */
    failureReason: text("failure_reason"),
    /** When the simulated processor settles it; null when automatic settlement is off. */
    settleAt: at("settle_at"),
    settledAt: at("settled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("refunds_payment_idx").on(t.paymentId, t.id.desc()),
    // The refunds list's orders (newest first; by status; a customer's), as the payments' indexes: with the id,
    // so a deep page seeks by (created_at, id) (lib/refunds/queries.ts).
    index("refunds_merchant_created_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("refunds_merchant_status_created_idx").on(
      t.merchantId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("refunds_merchant_customer_created_idx")
      .on(t.merchantId, t.customerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`customer_id is not null`),
    // The settler's due refunds.
    index("refunds_pending_settle_idx")
      .on(t.settleAt)
      .where(sql`status = 'pending'`),
  ],
);

export const events = pgTable(
  "events",
  {
    /** `evt_…`; also the Standard Webhooks `webhook-id`, stable across retries. */
    id: text("id").primaryKey(),
    merchantId: merchantId(),
    paymentId: bigint("payment_id", { mode: "number" }).references(() => payments.id),
    type: text("type").notNull(),
    /** The webhook body's `data`: the full payment as it was at the transition (json keeps its key order). */
    data: json("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("events_payment_idx").on(t.paymentId, t.createdAt),
    // The events API's pages, with and without a type filter: ids straight from the index.
    index("events_merchant_created_id_idx").on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index("events_merchant_type_created_idx").on(t.merchantId, t.type, t.createdAt.desc(), t.id.desc()),
    // The pruner deletes events past EVENT_RETENTION_DAYS, oldest first.
    index("events_created_idx").on(t.createdAt),
  ],
);

/**
 * How many events a merchant has per hour and type, kept by the outbox statement and the pruner: the events
 * API reads its total and finds a deep page's hour here (a few thousand rows at most) instead of counting
 * or skipping through a million index entries. Hours are `date_bin('1 hour', created_at, 2000-01-01 UTC)`.
 */
export const eventHourlyCounts = pgTable(
  "event_hourly_counts",
  {
    merchantId: merchantId(),
    type: text("type").notNull(),
    hour: at("hour").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.type, t.hour] }),
    // The pruner removes emptied hours.
    index("event_hourly_counts_hour_idx").on(t.hour),
  ],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    merchantId: merchantId(),
    kind: text("kind", { enum: ENDPOINT_KINDS }).notNull().default("url"),
    /** For an inbox, `inbox://<random>`: it names the inbox and is never dialled. */
    url: text("url").notNull(),
    description: text("description"),
    /** Event types this endpoint receives, e.g. {payment.completed}. */
    eventTypes: text("event_types").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why the platform disabled it (410 Gone, failing for 5 days); null when a person did. */
    disabledReason: text("disabled_reason"),
    /** AES-256-GCM ciphertext of the `whsec_` signing secret (it must be recoverable to sign). */
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** After a rotation the old secret keeps signing alongside the new one until previous_secret_expires_at. */
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: at("previous_secret_expires_at"),
    /** First failed attempt since the last success; drives auto-disable after 5 days. */
    failingSince: at("failing_since"),
    /** An inbox's chosen answer (fail on purpose): this status, or a timeout; null answers 200. */
    inboxResponseStatus: integer("inbox_response_status"),
    inboxResponseTimeout: boolean("inbox_response_timeout").notNull().default(false),
    /** How many more deliveries get the chosen answer; null: until it is changed. */
    inboxResponseRemaining: integer("inbox_response_remaining"),
    /** The inbox's capture rate window: captures are bounded per minute. */
    inboxWindowStartedAt: at("inbox_window_started_at"),
    inboxWindowCount: integer("inbox_window_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_merchant_idx").on(t.merchantId)],
);

/** What an inbox endpoint received: one row per delivery attempt, kept 7 days. */
export const webhookInboxCaptures = pgTable(
  "webhook_inbox_captures",
  {
    id: id(),
    merchantId: merchantId(),
    endpointId: bigint("endpoint_id", { mode: "number" })
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    attempt: integer("attempt").notNull(),
    /** Lower-case header names to values, as sent. */
    headers: json("headers").$type<Record<string, string>>().notNull(),
    /** The exact body sent, up to the capture cap. */
    body: text("body").notNull(),
    bodyTruncated: boolean("body_truncated").notNull().default(false),
    /** What the inbox answered; null when it was set to time out. */
    responseStatus: integer("response_status"),
    verificationValid: boolean("verification_valid").notNull(),
    verificationCode: text("verification_code"),
    verificationReason: text("verification_reason").notNull(),
    receivedAt: at("received_at").notNull().defaultNow(),
  },
  (t) => [
    index("webhook_inbox_captures_endpoint_idx").on(t.merchantId, t.endpointId, t.id.desc()),
    // The pruner's 7-day cut.
    index("webhook_inbox_captures_received_idx").on(t.receivedAt),
  ],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    merchantId: merchantId(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    endpointId: bigint("endpoint_id", { mode: "number" })
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** When a worker may next try it; also the lease: a claim pushes it forward past the send timeout. */
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lastAttemptAt: at("last_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.merchantId, t.endpointId, t.createdAt.desc()),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

/**
 * Partitioned by week of attempted_at (migration 0022; drizzle cannot declare partitions): see
 * lib/platform/history-partitions.ts.
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: partitionedId(),
    merchantId: merchantId(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: at("attempted_at").notNull().defaultNow(),
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    /** The first 1 KB of the response body. */
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.attemptedAt] }),
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt),
    // The Webhooks page's 24-hour health per endpoint.
    index("webhook_attempts_merchant_attempted_idx").on(t.merchantId, t.attemptedAt),
  ],
);

/**
 * UNLOGGED (migration 0006; drizzle cannot declare it): counters skip the WAL, so an API read never waits for
 * a disk flush. A crash empties the table, which only forgives the current rate-limit window.
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  /** What is limited, e.g. `token:42`. */
  key: text("key").primaryKey(),
  /** GCRA "theoretical arrival time": a request is allowed while tat + interval - now <= period. */
  tat: at("tat").notNull(),
  /** Whether the latest request was allowed (returned by the same statement that updates tat). */
  allowed: boolean("allowed").notNull(),
  /** Seconds between requests at the steady rate (period / limit), as of the latest request. */
  emissionIntervalSeconds: doublePrecision("emission_interval_seconds").notNull().default(2),
});

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: id(),
    merchantId: merchantId(),
    key: text("key").notNull(),
    /** SHA-256 of the request body, to tell a replay from a reuse of the key with another body (409). */
    requestHash: text("request_hash").notNull(),
    paymentId: bigint("payment_id", { mode: "number" }).references(() => payments.id),
    /** Set instead of payment_id when the key was claimed by a refund creation. */
    refundId: bigint("refund_id", { mode: "number" }).references(() => refunds.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_merchant_key_idx").on(t.merchantId, t.key),
    // The pruner deletes expired keys oldest first.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: id(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    // Null while the attempt is under way (it counts as a failure until it is finished).
    succeeded: boolean("succeeded"),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_attempts_email_idx").on(t.email, t.createdAt),
    index("login_attempts_ip_idx").on(t.ip, t.createdAt),
    index("login_attempts_created_idx").on(t.createdAt),
  ],
);

/**
 * Every API request a token made, for the merchant's Logs page: written off the request path in batches,
 * pruned after API_LOG_RETENTION_DAYS. Never the Authorization header; a response body only for 4xx/5xx.
 * Partitioned by day of created_at (migration 0022): retention drops whole days (history-partitions.ts).
 */
export const apiRequestLogs = pgTable(
  "api_request_logs",
  {
    id: partitionedId(),
    // No foreign key: checking one locks the merchant's row once per logged request, and the worker's
    // retention prune removes a deleted merchant's entries like everyone else's.
    merchantId: bigint("merchant_id", { mode: "number" }).notNull(),
    requestId: text("request_id").notNull(),
    tokenId: bigint("token_id", { mode: "number" }).notNull(),
    method: text("method").notNull(),
    /** Path and query, as sent (at most 2,048 characters). */
    path: text("path").notNull(),
    status: integer("status").notNull(),
    latencyMs: doublePrecision("latency_ms").notNull(),
    clientIp: text("client_ip").notNull(),
    idempotencyKey: text("idempotency_key"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    // Also how a request id is found: by the time it carries (lib/logs/queries.ts), with no index of its own.
    // Plain DESC (nulls first) so the Logs page's `order by created_at desc, id desc` reads it in order, newest
    // partition first, and stops at the page (with NULLS LAST every entry of the merchant was sorted).
    index("api_request_logs_merchant_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Time ranges over every merchant: rows arrive in time order, so BRIN (a few pages) does what a btree would.
    // Retention, its first reader, now drops partitions instead.
    index("api_request_logs_created_idx").using("brin", t.createdAt),
  ],
);

/** An owner's invitation to join the merchant: a single-use link (only its hash is stored). */
export const invitations = pgTable(
  "invitations",
  {
    id: id(),
    merchantId: merchantId(),
    email: text("email").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: bigint("invited_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
    revokedAt: at("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_idx").on(t.tokenHash),
    index("invitations_merchant_idx").on(t.merchantId, t.createdAt),
  ],
);

/** Sign-ups per client address, for the sign-up throttle (pruned after a day). */
export const signupAttempts = pgTable(
  "signup_attempts",
  {
    id: id(),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("signup_attempts_ip_idx").on(t.ip, t.createdAt),
    index("signup_attempts_created_idx").on(t.createdAt),
  ],
);

/**
 * One row per open event stream (`GET /api/events/stream`), whichever process serves it: the per-token cap is
 * counted here under the token's row lock. A live stream pushes `expires_at` ahead every 15 s; a process that
 * died leaves rows that stop counting once they expire.
 */
export const eventStreamLeases = pgTable(
  "event_stream_leases",
  {
    id: id(),
    tokenId: bigint("token_id", { mode: "number" })
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("event_stream_leases_token_idx").on(t.tokenId, t.expiresAt)],
);

/** PostgreSQL's WAL position type: compared and ordered by the database, read as text ("16/B374D848"). */
const pgLsn = customType<{ data: string }>({ dataType: () => "pg_lsn" });

/**
 * UNLOGGED (migration 0023; drizzle cannot declare it): where each merchant's last write left the primary's
 * WAL, so its reads wait for a replica that has replayed that far (db/replicas.ts). Written only when read
 * replicas are configured; a crash empties it, which only sends reads to replicas a moment early.
 */
export const merchantWritePositions = pgTable("merchant_write_positions", {
  merchantId: bigint("merchant_id", { mode: "number" }).primaryKey(),
  lsn: pgLsn("lsn").notNull(),
});
