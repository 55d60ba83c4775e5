// Merchants and the people who sign in for them: users, their sessions, invitations and the sign-in and
// sign-up throttles' attempts.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  type AnyPgColumn,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CONNECTED_PROCESSORS, ENVIRONMENT_KINDS, PAYOUT_SCHEDULES, USER_ROLES } from "../enums";
import { at, createdAt, id, updatedAt } from "./columns";

/**
 * A merchant's environment (DESIGN.md, "Live and sandboxes"): every table's `merchant_id` names one, so each
 * environment's data is apart by the same scoping rules. The row a sign-up makes is the account (its team and
 * security history hang on it) and its first sandbox, "Test"; the account's live environment and its other
 * sandboxes are rows whose `account_id` names it.
 */
export const merchants = pgTable(
  "merchants",
  {
    id: id(),
    name: text("name").notNull(),
    /** The account this environment belongs to; null: this row is the account (and its first sandbox). */
    accountId: bigint("account_id", { mode: "number" }).references((): AnyPgColumn => merchants.id, {
      onDelete: "cascade",
    }),
    environment: text("environment", { enum: ENVIRONMENT_KINDS }).notNull().default("sandbox"),
    /** A sandbox's name, unique in its account ("Test" for the first); null for live. */
    sandboxName: text("sandbox_name").default("Test"),
    /**
     * A sandbox's test clock (DESIGN.md, "Test clock"): the time it runs on, moved only by an advance; null: real
     * time. Read through merchant_now() by every time-driven step.
     */
    clockAt: at("clock_at"),
    /**
     * The processor its owners connected (processor_connections holds the key); null: the simulator. Read with
     * the API token, so a create knows where to go without another query.
     */
    processor: text("processor", { enum: CONNECTED_PROCESSORS }),
    /** "Contact support" override of the API rate limit (requests per minute per token); null = default. */
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    /** The currency of a payment or payment link created without one (Settings, "Default currency"). */
    defaultCurrency: text("default_currency").notNull().default("USD"),
    /** The IANA time zone its reports' days are in (Settings, "Report time zone"; DESIGN.md, "Time zone"). */
    reportTimezone: text("report_timezone").notNull().default("UTC"),
    /** Its price per completed payment: this percent of the amount, plus fee_fixed (`merchant:pricing`). */
    feePercent: numeric("fee_percent").notNull().default("2.9"),
    /** In minor units of the payment's currency: 30 is 0.30 EUR, 30 JPY, 0.030 KWD. */
    feeFixed: numeric("fee_fixed").notNull().default("30"),
    /** Settings → Payouts: when its available balance is paid out by itself (PAYOUT_SCHEDULES). */
    payoutSchedule: text("payout_schedule", { enum: PAYOUT_SCHEDULES }).notNull().default("daily"),
    /** The last day the schedule paid it out (UTC): each day's run does a merchant once. */
    lastScheduledPayoutOn: date("last_scheduled_payout_on"),
    /** Set by an owner: every member must sign in with a second factor (those without one enrol first). */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One live environment an account; its sandboxes found by the account.
    uniqueIndex("merchants_live_idx")
      .on(t.accountId)
      .where(sql`environment = 'live'`),
    uniqueIndex("merchants_sandbox_name_idx").on(t.accountId, t.sandboxName),
    // The few sandboxes on a clock, which real-time background work passes over.
    index("merchants_clocked_idx")
      .on(t.id)
      .where(sql`clock_at is not null`),
  ],
);

/** The owning merchant's id, as every tenant table declares it: deleting the merchant deletes its rows. */
export const merchantIdColumn = () =>
  bigint("merchant_id", { mode: "number" })
    .notNull()
    .references(() => merchants.id, { onDelete: "cascade" });

export const users = pgTable(
  "users",
  {
    id: id(),
    merchantId: merchantIdColumn(),
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
    merchantId: merchantIdColumn(),
    /** The client address and browser of the last use (written at most once a minute). */
    ip: text("ip").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at").notNull().defaultNow(),
    /**
     * When the password (and second factor) was last entered again in this session ("sudo mode",
     * lib/accounts/reauthentication.ts): actions that move money or grant access need it within 10 minutes.
     * Signing in does not set it.
     */
    reauthenticatedAt: at("reauthenticated_at"),
  },
  (t) => [
    uniqueIndex("user_sessions_session_key_idx").on(t.sessionKey),
    index("user_sessions_user_idx").on(t.userId),
    index("user_sessions_last_used_idx").on(t.lastUsedAt),
  ],
);

/** An owner's invitation to join the merchant: a single-use link (only its hash is stored). */
export const invitations = pgTable(
  "invitations",
  {
    id: id(),
    merchantId: merchantIdColumn(),
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
