// Webhook endpoints (and inboxes), the deliveries of events to them and each delivery's attempts.
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, json, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { DELIVERY_STATUSES, ENDPOINT_KINDS } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, rowId, updatedAt, sameMerchantKey } from "./columns";
import { events } from "./events";

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
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
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // By id alone: only the API's 403-or-404 on a miss (lib/platform/ownership.ts).
    index("webhook_endpoints_id_idx").on(t.id),
    index("webhook_endpoints_merchant_idx").on(t.merchantId),
  ],
);

/** What an inbox endpoint received: one row per delivery attempt, kept 7 days. */
export const webhookInboxCaptures = pgTable(
  "webhook_inbox_captures",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
    endpointId: bigint("endpoint_id", { mode: "number" }).notNull(),
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
    primaryKey({ columns: [t.merchantId, t.id] }),
    sameMerchantKey(
      "webhook_inbox_captures_endpoint_fk",
      [t.merchantId, t.endpointId],
      webhookEndpoints,
    ).onDelete("cascade"),
    index("webhook_inbox_captures_endpoint_idx").on(t.merchantId, t.endpointId, t.id.desc()),
    // The pruner's 7-day cut.
    index("webhook_inbox_captures_received_idx").on(t.receivedAt),
  ],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
    eventId: text("event_id").notNull(),
    endpointId: bigint("endpoint_id", { mode: "number" }).notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** When a worker may next try it; also the lease: a claim pushes it forward past the send timeout. */
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lastAttemptAt: at("last_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // By id alone: only the API's 403-or-404 on a miss (lib/platform/ownership.ts).
    index("webhook_deliveries_id_idx").on(t.id),
    sameMerchantKey("webhook_deliveries_event_fk", [t.merchantId, t.eventId], events),
    sameMerchantKey(
      "webhook_deliveries_endpoint_fk",
      [t.merchantId, t.endpointId],
      webhookEndpoints,
    ).onDelete("cascade"),
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
    id: rowId(),
    merchantId: merchantIdColumn(),
    deliveryId: bigint("delivery_id", { mode: "number" }).notNull(),
    attemptedAt: at("attempted_at").notNull().defaultNow(),
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    /** The first 1 KB of the response body. */
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id, t.attemptedAt] }),
    sameMerchantKey("webhook_attempts_delivery_fk", [t.merchantId, t.deliveryId], webhookDeliveries).onDelete(
      "cascade",
    ),
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt),
    // The Webhooks page's 24-hour health per endpoint.
    index("webhook_attempts_merchant_attempted_idx").on(t.merchantId, t.attemptedAt),
  ],
);
