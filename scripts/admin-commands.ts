import type { Database } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { sendInvitation } from "@/lib/accounts/invitations";
import { resetPassword } from "@/lib/accounts/members";
import { findMerchantIdByEmail, setMerchantRateLimit } from "@/lib/accounts/merchants";
import { setMerchantPricing } from "@/lib/ledger/pricing";
import { ledgerEntryBalances, verifyLedger } from "@/lib/ledger/verify";
import { createPayment } from "@/lib/payments/create-payment";
import { cancelPayment, settlePayment } from "@/lib/payments/settlement";
import { keyId, reencryptStoredSecrets } from "@/lib/platform/encryption";
import { getEnv } from "@/lib/platform/env";
import { parseId } from "@/lib/platform/validation";
import { settleRefund } from "@/lib/refunds/settlement";
import { OPERATOR } from "@/lib/security/history";
import { scopeList } from "@/lib/tokens/schemas";
import {
  createApiToken,
  listApiTokens,
  notifyOwnersOfPayoutAccountKey,
  revokeApiToken,
} from "@/lib/tokens/tokens";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";

export type OptionSpec = { type: "string" | "boolean"; required?: boolean; description: string };
export type CommandOptions = Record<string, string | boolean | undefined>;

const emailOption: OptionSpec = {
  type: "string",
  required: true,
  description: "a login email of the merchant",
};

export type AdminCommand = {
  summary: string;
  options: Record<string, OptionSpec>;
  run: (db: Database, options: CommandOptions) => Promise<Record<string, unknown>>;
  /** Whether what it printed is a failure (exit 1), as a check that found a difference. */
  failed?: (result: Record<string, unknown>) => boolean;
};

/** Every operator command calls the same domain function the dashboard and API use. */
export const adminCommands: Record<string, AdminCommand> = {
  "merchant:create": {
    summary: "Create a merchant and its owner user.",
    options: {
      email: { type: "string", required: true, description: "owner's login email" },
      password: { type: "string", required: true, description: "owner's password (at least 10 characters)" },
      name: { type: "string", description: "business name (defaults to the email)" },
      "owner-name": { type: "string", description: "the owner's own name (optional; the email stands in)" },
    },
    async run(db, options) {
      const account = await createMerchantWithOwner(db, {
        email: options.email,
        password: options.password,
        name: options.name ?? options.email,
        owner_name: options["owner-name"],
      });
      return { merchant_id: account.merchantId, user_id: account.userId, email: account.email };
    },
  },
  "token:create": {
    summary: "Generate an API token; the token is printed once.",
    options: {
      email: emailOption,
      name: { type: "string", required: true, description: "what the token is for" },
      scope: {
        type: "string",
        description:
          "read or write (default write); write,payout_account may also replace the payout account",
      },
      "expires-in-days": { type: "string", description: "days until it expires (default never)" },
    },
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      const token = await createApiToken(
        db,
        merchantId,
        { name: options.name, scope: options.scope ?? "write", expires_in_days: options["expires-in-days"] },
        OPERATOR,
      );
      if (token.payoutAccount) await notifyOwnersOfPayoutAccountKey(db, merchantId, token, OPERATOR);
      return { id: token.id, name: token.name, token: token.token, scope: scopeList(token) };
    },
  },
  "token:list": {
    summary: "List a merchant's API tokens (never their secrets).",
    options: { email: emailOption },
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      const tokens = await listApiTokens(db, merchantId);
      return {
        tokens: tokens.map((token) => ({
          id: token.id,
          name: token.name,
          hint: token.displayHint,
          scope: scopeList(token),
          created_by: token.createdBy,
          status: token.status,
          created_at: token.createdAt.toISOString(),
          last_used_at: token.lastUsedAt?.toISOString() ?? null,
          expires_at: token.expiresAt?.toISOString() ?? null,
          revoked_at: token.revokedAt?.toISOString() ?? null,
        })),
      };
    },
  },
  "token:revoke": {
    summary: "Revoke an API token; its next request gets 401.",
    options: { email: emailOption, id: { type: "string", required: true, description: "the token's id" } },
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      const revoked = await revokeApiToken(db, merchantId, parseId(options.id), OPERATOR);
      return { id: revoked.id, revoked_at: revoked.revokedAt.toISOString() };
    },
  },
  "merchant:rate-limit": {
    summary: "Set a merchant's API rate limit (requests per minute per token).",
    options: {
      email: emailOption,
      "per-minute": { type: "string", required: true, description: "1 to 1000000" },
    },
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      return setMerchantRateLimit(db, merchantId, { per_minute: options["per-minute"] });
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
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      return setMerchantPricing(db, merchantId, { percent: options.percent, fixed: options.fixed }, OPERATOR);
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
    async run(db, options) {
      const report = await verifyLedger(db);
      if (typeof options.email !== "string") return report;
      const merchantId = await findMerchantIdByEmail(db, options.email);
      return { ...report, balances: await ledgerEntryBalances(db, merchantId) };
    },
    failed: (result) => result.ok !== true,
  },
  "webhook:create": {
    summary: "Add a webhook endpoint; its signing secret is printed.",
    options: {
      email: emailOption,
      url: { type: "string", required: true, description: "https:// URL that receives events" },
      events: { type: "string", description: "comma-separated event types (default all)" },
    },
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      const events =
        typeof options.events === "string"
          ? options.events.split(",").map((event) => event.trim())
          : undefined;
      const endpoint = await createWebhookEndpoint(db, merchantId, { url: options.url, events });
      return { id: endpoint.id, url: endpoint.url, secret: endpoint.secret };
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
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      const input = {
        amount: options.amount,
        currency: options.currency,
        external_id: options["external-id"],
        customer_id: options["customer-id"],
      };
      const { paymentId } = await createPayment(db, merchantId, input, {
        source: "cli",
        autoSettleMs: getEnv().PAYMENTS_AUTO_SETTLE_MS,
      });
      return { id: paymentId, status: "pending" };
    },
  },
  "payment:settle": {
    summary: "Settle a pending payment as completed or failed (emits its event).",
    options: {
      id: { type: "string", required: true, description: "the payment's id" },
      outcome: { type: "string", required: true, description: "completed or failed" },
    },
    async run(db, options) {
      const payment = await settlePayment(db, parseId(options.id), { outcome: options.outcome });
      return { id: payment.id, status: payment.status };
    },
  },
  "payment:cancel": {
    summary: 'Cancel a pending payment: it fails with "Canceled by the merchant." (emits payment.failed).',
    options: { id: { type: "string", required: true, description: "the payment's id" } },
    async run(db, options) {
      const payment = await cancelPayment(db, parseId(options.id), null);
      return { id: payment.id, status: payment.status };
    },
  },
  "refund:settle": {
    summary: "Settle a pending refund as succeeded or failed (emits its event).",
    options: {
      id: { type: "string", required: true, description: "the refund's id" },
      outcome: { type: "string", required: true, description: "succeeded or failed" },
    },
    async run(db, options) {
      const refund = await settleRefund(db, parseId(options.id), { outcome: options.outcome }, null);
      return { id: refund.id, payment_id: refund.payment_id, status: refund.status };
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
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options["merchant-email"]));
      const invitation = await sendInvitation(
        db,
        merchantId,
        null,
        { email: options.email, role: options.role },
        OPERATOR,
      );
      return {
        invitation_id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        url: invitation.url,
        expires_at: invitation.expiresAt.toISOString(),
        mailed: invitation.mailed,
      };
    },
  },
  "user:reset-password": {
    summary: "Set a new password for a login email (the user signs in with it; their second factor stays).",
    options: {
      email: { type: "string", required: true, description: "the user's login email" },
      password: { type: "string", required: true, description: "the new password (at least 10 characters)" },
    },
    run: (db, options) => resetPassword(db, { email: options.email, password: options.password }, OPERATOR),
  },
  "secrets:reencrypt": {
    summary:
      "Re-encrypt every stored secret under the first of ENCRYPTION_KEYS (after adding a new key first).",
    options: {},
    async run(db) {
      const reencrypted = await reencryptStoredSecrets(db);
      return { reencrypted, key: keyId(getEnv().ENCRYPTION_KEYS![0]!) };
    },
  },
};
