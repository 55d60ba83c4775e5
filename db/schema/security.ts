// The merchant's security history (DESIGN.md, "Security history, and a payout account a stolen session cannot
// redirect"): who did what sensitive thing, from where. Append-only; written in the action's own transaction.
import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, rowId } from "./columns";

/**
 * One sensitive action on a merchant's account: a sign-in, a token revoked, the payout account changed. Nothing
 * updates or deletes a row but retention, which drops whole weeks past SECURITY_HISTORY_RETENTION_DAYS (at least
 * a year). Partitioned by week of created_at (migration 0054), as webhook_attempts is.
 */
export const securityEvents = pgTable(
  "security_events",
  {
    // No foreign key: a removed member's or a deleted merchant's history stays as it was written.
    merchantId: bigint("merchant_id", { mode: "number" }).notNull(),
    id: rowId(),
    /** What was done: one of SECURITY_ACTIONS (lib/security/actions.ts), e.g. `payout_account.changed`. */
    action: text("action").notNull(),
    /** Who: the user's email, an API token's name and prefix (`CI (pay_…a1b2)`), or `operator`. */
    actor: text("actor").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** What it was done to, in words: `IBAN ending 3000`, `token Deploy (pay_…a1b2)`, `member a@b.test`. */
    target: text("target").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id, t.createdAt] }),
    // The history page: newest first, in plain DESC so each partition's index reads in order (as the Logs page).
    index("security_events_merchant_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Filtered by action.
    index("security_events_merchant_action_idx").on(
      t.merchantId,
      t.action,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);
