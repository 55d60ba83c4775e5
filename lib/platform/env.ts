import { z } from "zod";
import { databaseConfigSchema } from "@/db/config";
import { parseTrustedProxies } from "./client-ip";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .default("false")
  .transform((value) => value === "true" || value === "1");

/** A duration such as `24h`, `30m`, `90s` or `7d` (at most 365 days), or `0`; milliseconds after parsing. */
function duration(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const match = /^\s*(\d+)\s*(ms|s|m|h|d)?\s*$/.exec(value);
      const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match?.[2] ?? "ms"]!;
      const ms = match ? Number(match[1]) * unit : Number.NaN;
      if (!Number.isSafeInteger(ms) || ms > 365 * 86_400_000) {
        ctx.addIssue({
          code: "custom",
          message: "must be a duration such as 24h, 30m or 7d (at most 365d), or 0",
        });
        return z.NEVER;
      }
      return ms;
    });
}

const envSchema = databaseConfigSchema
  .extend({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    AUTH_SECRET: z
      .string()
      .min(32, "must be at least 32 characters (generate one: openssl rand -base64 33)")
      .optional(),
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    PAYMENTS_AUTO_SETTLE_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * A payment still pending this long after it was created fails ("Expired: …"): a duration such as
     * `24h`, `30m`, `90s` or `7d`; `0` never expires one. Milliseconds after parsing.
     */
    PAYMENTS_PENDING_EXPIRE_AFTER: duration("24h"),
    /**
     * How long after a payment completes its net becomes available (DESIGN.md, "Balance transactions"):
     * `2d`, `12h`, or `0` for at once. Milliseconds after parsing.
     */
    BALANCE_AVAILABLE_AFTER: duration("2d"),
    /** How long a merchant has to answer a dispute with evidence (DESIGN.md, "Disputes"): 7 days by default. */
    DISPUTE_EVIDENCE_DAYS: z.coerce.number().int().min(1).max(90).default(7),
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: booleanFlag,
    /** How long a receiver has to answer (Standard Webhooks receivers are expected to answer fast). */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
    /** `inline` runs the webhook worker and settler inside the web server; `off` leaves it to `npm run worker`. */
    WORKER_MODE: z.enum(["inline", "off"]).default("inline"),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    /** Enables GET /metrics, served only with `Authorization: Bearer $METRICS_TOKEN`. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * Keys for secrets stored encrypted (webhook signing secrets): comma-separated, each 32 random bytes in
     * base64 (openssl rand -base64 32). The first encrypts; all decrypt, so keys rotate without downtime.
     */
    ENCRYPTION_KEYS: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (!value?.trim()) return undefined;
        const keys = value.split(",").map((entry) => Buffer.from(entry.trim(), "base64"));
        const bad = keys.findIndex((key) => key.length !== 32);
        if (bad >= 0) {
          ctx.addIssue({
            code: "custom",
            message: `key ${bad + 1} is not 32 bytes in base64 (generate one: openssl rand -base64 32)`,
          });
          return z.NEVER;
        }
        return keys;
      }),
    /** Sends invitations by mail when set (`smtp://user:pass@host:587`); without it links are shown to pass on. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Payments <no-reply@localhost>"),
    /**
     * A directory that keeps a copy of every mail as an .eml file, SMTP or not (`npm run dev`: .data/outbox): how
     * a developer or a test reads what was sent without a mail server.
     */
    MAIL_OUTBOX_DIR: z.string().min(1).optional(),
    /** How many sandboxes an account may have (DESIGN.md, "Sandboxes API"): the 501st create is a 422. */
    SANDBOXES_PER_ACCOUNT: z.coerce.number().int().min(1).default(500),
    /**
     * How long payouts wait after the payout account is replaced (DESIGN.md, "Changing the payout account"):
     * `24h` (the default), `30m`, `90s`, `0` (none: the tests). The owners are emailed meanwhile.
     */
    PAYOUT_ACCOUNT_CHANGE_HOLD: duration("24h"),
    /** Mollie's API root for its official library (DESIGN.md, "Processors"); a stand-in's in the tests. */
    MOLLIE_API_URL: z
      .url({ protocol: /^https$/, error: "must be an https:// URL" })
      .default("https://api.mollie.com/v2/"),
    /** Stripe's API origin for its official library; a stand-in's in the tests. */
    STRIPE_API_URL: z
      .url({ protocol: /^https$/, error: "must be an https:// URL" })
      .default("https://api.stripe.com"),
    /**
     * A PEM file of a certificate authority the processors' libraries trust beside their own: a stand-in's, or a
     * TLS-inspecting proxy's (docs/processors.md).
     */
    PROCESSOR_CA_FILE: z.string().min(1).optional(),
    /** How long a call to a processor may take before the merchant's request is answered 503. */
    PROCESSOR_TIMEOUT: duration("10s"),
    /** A live processor payment pending this long is asked about by the reconciler (a webhook that never came). */
    PROCESSOR_RECONCILE_AFTER: duration("10m"),
    /**
     * The proxies in front of the app, trusted to report the client's address in X-Forwarded-For: a hop count
     * or a list of addresses and CIDR networks. Default none: the socket's address is the client's.
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((value, ctx) => {
        try {
          return parseTrustedProxies(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    /** Events (and their delivery logs) are kept this many days, at least 30, then pruned by the worker. */
    EVENT_RETENTION_DAYS: z.coerce
      .number()
      .int()
      .min(30, "must be at least 30 (the events API promises 30 days)")
      .default(30),
    /** `false` turns the API request log off (the benchmark measures its cost both ways). */
    API_REQUEST_LOG: z
      .enum(["true", "false", "1", "0"])
      .default("true")
      .transform((value) => value === "true" || value === "1"),
    /** Open `GET /api/events/stream` connections per API token, across every process; one more is a 429. */
    EVENT_STREAMS_PER_TOKEN: z.coerce.number().int().min(1).max(1000).default(5),
    /** API request log entries are kept this many days; the worker then drops their day (history-partitions.ts). */
    API_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** How long the security history is kept: at least a year (DESIGN.md, "Security history"). */
    SECURITY_HISTORY_RETENTION_DAYS: z.coerce.number().int().min(366).max(3650).default(400),
    /**
     * How long an API request's body may take to arrive (408 after), counted from its headers. At most
     * 240 s: Node's own requestTimeout (300 s, headers included, which take up to 60 s) must not cut first.
     */
    API_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(240_000).default(30_000),
    /**
     * How long an API request's work may take, once its body is read, before it is answered 503 (lib/api/router.ts):
     * bounds the wait when the database is unreachable. Longer for a deployment whose bursts queue longer
     * (one merchant's settles at once on Citus: docs/scaling.md).
     */
    API_DEADLINE_MS: z.coerce.number().int().min(100).max(120_000).default(2000),
    /** `npm run worker` serves /healthz, /readyz and /metrics on this port when set (its own deliveries' metrics). */
    WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
    /**
     * How long a stop (SIGTERM, SIGINT) may take to finish the work under way before the process exits anyway
     * with code 1: work left is leased or in a transaction, so another process takes it up (background-services.ts).
     */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** Web server processes for `npm start` (PostgreSQL only); default one per CPU in production. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    /**
     * The platform's public origin (`https://pay.example.com`): absolute URLs (pagination links, the OpenAPI
     * servers) are built from it, never from the request's Host header, which any client sets.
     */
    APP_URL: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .transform((value) => new URL(value))
      .refine((url) => url.pathname === "/" && !url.search, {
        error: "must be an origin only (no path or query), e.g. https://pay.example.com",
      })
      .transform((url) => url.origin)
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_REPLICA_URLS.length > 0 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_REPLICA_URLS"],
        message: "needs DATABASE_URL: the embedded database (PGlite) has no replicas",
      });
    }
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required in production (generate one: openssl rand -base64 33)",
      });
    }
    if (env.NODE_ENV === "production" && !env.ENCRYPTION_KEYS) {
      ctx.addIssue({
        code: "custom",
        path: ["ENCRYPTION_KEYS"],
        message: "is required in production (generate one: openssl rand -base64 32)",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class InvalidEnvironmentError extends Error {}

let cached: Env | undefined;

/** Parses process.env once; a bad value fails with one readable line per problem. */
export function getEnv(): Env {
  if (cached) return cached;
  const result = envSchema.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new InvalidEnvironmentError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  cached = result.data;
  return cached;
}

/** The web server's own requirement: in production it must know its public origin (workers build no URLs). */
export function checkWebServerEnv(): void {
  const env = getEnv();
  if (env.NODE_ENV === "production" && !env.APP_URL)
    throw new InvalidEnvironmentError(
      "Invalid environment configuration:\n  - APP_URL: is required in production: the public origin, e.g. https://pay.example.com",
    );
}

/** The public origin absolute URLs are built from; in development `http://localhost:$PORT` unless APP_URL says. */
export function appOrigin(): string {
  const env = getEnv();
  return env.APP_URL ?? `http://localhost:${env.PORT}`;
}
