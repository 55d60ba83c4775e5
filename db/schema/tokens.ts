// API tokens: how a merchant's program is let in.
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { KEY_SCOPES } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt, id } from "./columns";

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    merchantId: merchantIdColumn(),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the whole token; the plaintext is never stored. */
    tokenHash: text("token_hash").notNull(),
    /** Safe to show: the prefix and the last four characters, e.g. `pay_…a1B2`. */
    displayHint: text("display_hint").notNull(),
    scope: text("scope", { enum: KEY_SCOPES }).notNull().default("write"),
    /**
     * The `payout_account` scope beside `scope`: may replace the payout account through the API. Only an owner
     * grants it, after re-entering the password; read only by that one route, never by authentication.
     */
    payoutAccount: boolean("payout_account").notNull().default(false),
    /** Who made it: the member's email, or `operator`; every action taken with it names them (null: before 0057). */
    createdBy: text("created_by"),
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
