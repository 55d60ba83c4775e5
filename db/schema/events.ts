// Events (what happened to a payment, a refund or an endpoint), their hourly counts and the open event streams.
import { bigint, index, json, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, rowId, sameMerchantKey } from "./columns";
import { payments } from "./payments";
import { apiTokens } from "./tokens";

export const events = pgTable(
  "events",
  {
    /** `evt_…`; also the Standard Webhooks `webhook-id`, stable across retries. */
    id: text("id").notNull(),
    merchantId: merchantIdColumn(),
    paymentId: bigint("payment_id", { mode: "number" }),
    type: text("type").notNull(),
    /** The webhook body's `data`: the full payment as it was at the transition (json keeps its key order). */
    data: json("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // By id alone: only the API's 403-or-404 on a miss (lib/platform/ownership.ts).
    index("events_id_idx").on(t.id),
    sameMerchantKey("events_payment_fk", [t.merchantId, t.paymentId], payments),
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
    merchantId: merchantIdColumn(),
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

/**
 * One row per open event stream (`GET /api/events/stream`), whichever process serves it: the per-token cap is
 * counted here under the token's row lock. A live stream pushes `expires_at` ahead every 15 s; a process that
 * died leaves rows that stop counting once they expire.
 */
export const eventStreamLeases = pgTable(
  "event_stream_leases",
  {
    id: rowId(),
    tokenId: bigint("token_id", { mode: "number" })
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: createdAt(),
  },
  // A token's, not a merchant's: keyed (and on Citus sharded) by token, as its every statement names it.
  (t) => [
    primaryKey({ columns: [t.tokenId, t.id] }),
    index("event_stream_leases_token_idx").on(t.tokenId, t.expiresAt),
  ],
);
