// The operators' commands as `npm run admin -- --help` lists them: names, summaries and options, and nothing
// else, so the usage and the argument check load no domain code (scripts/admin.ts imports the commands
// themselves, scripts/admin-commands.ts, only to run one).

export type OptionSpec = { type: "string" | "boolean"; required?: boolean; description: string };
export type CommandOptions = Record<string, string | boolean | undefined>;

const emailOption: OptionSpec = {
  type: "string",
  required: true,
  description: "a login email of the merchant",
};

export type AdminCommandSpec = { summary: string; options: Record<string, OptionSpec> };

export const adminCommandSpecs: Record<string, AdminCommandSpec> = {
  "merchant:create": {
    summary: "Create a merchant and its owner user.",
    options: {
      email: { type: "string", required: true, description: "owner's login email" },
      password: { type: "string", required: true, description: "owner's password (at least 10 characters)" },
      name: { type: "string", description: "business name (defaults to the email)" },
      "owner-name": { type: "string", description: "the owner's own name (optional; the email stands in)" },
    },
  },
  "token:create": {
    summary:
      "Generate an API token, for the account's first sandbox unless told --live or --account; printed once.",
    options: {
      email: emailOption,
      live: { type: "boolean", description: "a key for the live environment (pay_live_…)" },
      account: {
        type: "boolean",
        description: "an account key (pay_acct_…, scope sandboxes): makes and deletes sandboxes",
      },
      name: { type: "string", required: true, description: "what the token is for" },
      scope: {
        type: "string",
        description:
          "read or write (default write); write,payout_account may also replace the payout account",
      },
      "expires-in-days": { type: "string", description: "days until it expires (default never)" },
    },
  },
  "token:list": {
    summary: "List a merchant's API tokens (never their secrets).",
    options: { email: emailOption },
  },
  "token:revoke": {
    summary: "Revoke an API token; its next request gets 401.",
    options: { email: emailOption, id: { type: "string", required: true, description: "the token's id" } },
  },
  "merchant:rate-limit": {
    summary: "Set a merchant's API rate limit (requests per minute per token).",
    options: {
      email: emailOption,
      "per-minute": { type: "string", required: true, description: "1 to 1000000" },
    },
  },
  "merchant:pricing": {
    summary: "Set a merchant's price per completed payment: a percent of the amount plus a fixed part.",
    options: {
      email: emailOption,
      percent: { type: "string", required: true, description: "e.g. 1.4 (default 2.9)" },
      fixed: {
        type: "string",
        required: true,
        description: "e.g. 0.25: that many minor units in every currency (0.25 EUR, 25 JPY; default 0.30)",
      },
    },
  },
  "processor:connect": {
    summary:
      "Connect an environment to Mollie or Stripe with the merchant's key (checked at the processor first): live unless told --sandbox.",
    options: {
      email: emailOption,
      processor: { type: "string", required: true, description: "mollie or stripe" },
      key: {
        type: "string",
        required: true,
        description: "the merchant's key at the processor (live_…/test_…, sk_live_…/sk_test_…)",
      },
      sandbox: {
        type: "string",
        description: "the sandbox's name (its processor's test mode); default live",
      },
    },
  },
  "ledger:verify": {
    summary:
      "Check the books: every posting sums to 0, every balance equals its entries (exits 1 on a difference).",
    options: {
      email: {
        type: "string",
        description: "also that merchant's balance per currency, summed from its ledger entries",
      },
    },
  },
  "webhook:create": {
    summary: "Add a webhook endpoint; its signing secret is printed.",
    options: {
      email: emailOption,
      url: { type: "string", required: true, description: "https:// URL that receives events" },
      events: { type: "string", description: "comma-separated event types (default all)" },
    },
  },
  "payment:create": {
    summary: "Create a payment (status pending; emits payment.pending), as POST /api/payments does.",
    options: {
      email: emailOption,
      amount: { type: "string", required: true, description: "amount in its currency's units, e.g. 12.50" },
      currency: { type: "string", description: "ISO 4217 code, e.g. EUR (default: the merchant's)" },
      "external-id": { type: "string", description: "the merchant's own identifier" },
      "customer-id": { type: "string", description: "the merchant's customer identifier" },
    },
  },
  "payment:settle": {
    summary: "Settle a pending payment as completed or failed (emits its event).",
    options: {
      id: { type: "string", required: true, description: "the payment's id" },
      outcome: { type: "string", required: true, description: "completed or failed" },
    },
  },
  "payment:cancel": {
    summary: 'Cancel a pending payment: it fails with "Canceled by the merchant." (emits payment.failed).',
    options: { id: { type: "string", required: true, description: "the payment's id" } },
  },
  "refund:settle": {
    summary: "Settle a pending refund as succeeded or failed (emits its event).",
    options: {
      id: { type: "string", required: true, description: "the refund's id" },
      outcome: { type: "string", required: true, description: "succeeded or failed" },
    },
  },
  "user:invite": {
    summary:
      "Invite an email to a merchant with a role; the single-use link is printed (and mailed with SMTP_URL).",
    options: {
      email: { type: "string", required: true, description: "the email to invite" },
      "merchant-email": { type: "string", required: true, description: "a login email of the merchant" },
      role: { type: "string", required: true, description: "owner, developer or viewer" },
    },
  },
  "user:reset-password": {
    summary: "Set a new password for a login email (the user signs in with it; their second factor stays).",
    options: {
      email: { type: "string", required: true, description: "the user's login email" },
      password: { type: "string", required: true, description: "the new password (at least 10 characters)" },
    },
  },
  "secrets:reencrypt": {
    summary:
      "Re-encrypt every stored secret under the first of ENCRYPTION_KEYS (after adding a new key first).",
    options: {},
  },
};
