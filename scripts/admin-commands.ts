import type { Database } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { sendInvitation } from "@/lib/accounts/invitations";
import { resetPassword } from "@/lib/accounts/members";
import { findMerchantIdByEmail, setMerchantRateLimit } from "@/lib/accounts/merchants";
import { createAccountKey, listEnvironments, liveEnvironmentOf } from "@/lib/environments/environments";
import { setMerchantPricing } from "@/lib/ledger/pricing";
import { ledgerEntryBalances, verifyLedger } from "@/lib/ledger/verify";
import { createPayment } from "@/lib/payments/create-payment";
import { cancelPayment, settlePayment } from "@/lib/payments/settlement";
import { keyId, reencryptStoredSecrets } from "@/lib/platform/encryption";
import { getEnv } from "@/lib/platform/env";
import { validationError } from "@/lib/platform/errors";
import { parseId } from "@/lib/platform/validation";
import { connectProcessor } from "@/lib/processors/connections";
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
import type { CommandOptions } from "./admin-command-specs";

export type AdminCommand = {
  run: (db: Database, options: CommandOptions) => Promise<Record<string, unknown>>;
  /** Whether what it printed is a failure (exit 1), as a check that found a difference. */
  failed?: (result: Record<string, unknown>) => boolean;
};

/** Every operator command calls the same domain function the dashboard and API use (its spec: admin-command-specs.ts). */
export const adminCommands: Record<string, AdminCommand> = {
  "merchant:create": {
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
    async run(db, options) {
      const accountId = await findMerchantIdByEmail(db, String(options.email));
      if (options.account) {
        const key = await createAccountKey(db, accountId, String(options.name), OPERATOR);
        return { id: key.id, name: key.name, token: key.token, scope: key.scope };
      }
      const merchantId = options.live ? await liveEnvironmentOf(db, accountId) : accountId;
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
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      const revoked = await revokeApiToken(db, merchantId, parseId(options.id), OPERATOR);
      return { id: revoked.id, revoked_at: revoked.revokedAt.toISOString() };
    },
  },
  "merchant:rate-limit": {
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      return setMerchantRateLimit(db, merchantId, { per_minute: options["per-minute"] });
    },
  },
  "merchant:pricing": {
    async run(db, options) {
      const merchantId = await findMerchantIdByEmail(db, String(options.email));
      return setMerchantPricing(db, merchantId, { percent: options.percent, fixed: options.fixed }, OPERATOR);
    },
  },
  "processor:connect": {
    async run(db, options) {
      const accountId = await findMerchantIdByEmail(db, String(options.email));
      const sandbox = typeof options.sandbox === "string" ? options.sandbox : undefined;
      const environment = (await listEnvironments(db, accountId)).find((each) =>
        sandbox === undefined ? each.kind === "live" : each.kind === "sandbox" && each.name === sandbox,
      );
      if (!environment) throw validationError({ sandbox: [`The account has no sandbox named ${sandbox}.`] });
      const connected = await connectProcessor(
        db,
        environment.id,
        { processor: options.processor, key: options.key },
        OPERATOR,
      );
      return {
        environment: environment.name,
        processor: connected.processor,
        mode: connected.mode,
        key: `…${connected.keyLast4}`,
      };
    },
  },
  "ledger:verify": {
    async run(db, options) {
      const report = await verifyLedger(db);
      if (typeof options.email !== "string") return report;
      const merchantId = await findMerchantIdByEmail(db, options.email);
      return { ...report, balances: await ledgerEntryBalances(db, merchantId) };
    },
    failed: (result) => result.ok !== true,
  },
  "webhook:create": {
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
    async run(db, options) {
      const payment = await settlePayment(db, parseId(options.id), { outcome: options.outcome });
      return { id: payment.id, status: payment.status };
    },
  },
  "payment:cancel": {
    async run(db, options) {
      const payment = await cancelPayment(db, parseId(options.id), null);
      return { id: payment.id, status: payment.status };
    },
  },
  "refund:settle": {
    async run(db, options) {
      const refund = await settleRefund(db, parseId(options.id), { outcome: options.outcome }, null);
      return { id: refund.id, payment_id: refund.payment_id, status: refund.status };
    },
  },
  "user:invite": {
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
    run: (db, options) => resetPassword(db, { email: options.email, password: options.password }, OPERATOR),
  },
  "secrets:reencrypt": {
    async run(db) {
      const reencrypted = await reencryptStoredSecrets(db);
      return { reencrypted, key: keyId(getEnv().ENCRYPTION_KEYS![0]!) };
    },
  },
};
