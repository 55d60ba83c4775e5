import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { merchants, users } from "@/db/schema";
import { currencyField, DEFAULT_CURRENCY } from "@/lib/money/currencies";
import { DomainError } from "@/lib/platform/errors";
import { timeZoneField } from "@/lib/platform/time-zones";
import { messages, parseInput } from "@/lib/platform/validation";

export async function getMerchantProfile(db: Executor, merchantId: number) {
  const [merchant] = await db
    .select({
      id: merchants.id,
      name: merchants.name,
      defaultCurrency: merchants.defaultCurrency,
      reportTimezone: merchants.reportTimezone,
      /** The support override of API_RATE_LIMIT_PER_MINUTE (per token), if any. */
      rateLimitPerMinute: merchants.rateLimitPerMinute,
      createdAt: merchants.createdAt,
    })
    .from(merchants)
    .where(eq(merchants.id, merchantId))
    .limit(1);
  return merchant;
}

/** Operators name a merchant by a member's login email. */
export async function findMerchantIdByEmail(db: Executor, email: string): Promise<number> {
  const [user] = await db
    .select({ merchantId: users.merchantId })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  if (!user) throw new DomainError("not_found", `No merchant has a user with the email ${email}.`);
  return user.merchantId;
}

const rateLimitSchema = z.object({
  per_minute: z.coerce
    .number({ error: messages.integer("per_minute") })
    .int(messages.integer("per_minute"))
    .min(1, messages.min("per_minute", 1))
    .max(1_000_000, messages.max("per_minute", 1_000_000)),
});

/** The "contact support" override: a per-merchant API rate limit, per token per minute. */
export async function setMerchantRateLimit(db: Executor, merchantId: number, input: unknown) {
  const { per_minute } = parseInput(rateLimitSchema, input);
  await db
    .update(merchants)
    .set({ rateLimitPerMinute: per_minute, updatedAt: new Date() })
    .where(eq(merchants.id, merchantId));
  return { merchant_id: merchantId, per_minute };
}

/** The currency of a payment or link created without one; USD for a merchant that never chose. */
export async function merchantDefaultCurrency(db: Executor, merchantId: number): Promise<string> {
  const [merchant] = await db
    .select({ defaultCurrency: merchants.defaultCurrency })
    .from(merchants)
    .where(eq(merchants.id, merchantId))
    .limit(1);
  return merchant?.defaultCurrency ?? DEFAULT_CURRENCY;
}

/** What the Reports pages open in: the default currency, and the report time zone (UTC until one is chosen). */
export async function merchantReportDefaults(
  db: Executor,
  merchantId: number,
): Promise<{ defaultCurrency: string; reportTimezone: string }> {
  const [merchant] = await db
    .select({ defaultCurrency: merchants.defaultCurrency, reportTimezone: merchants.reportTimezone })
    .from(merchants)
    .where(eq(merchants.id, merchantId))
    .limit(1);
  return merchant ?? { defaultCurrency: DEFAULT_CURRENCY, reportTimezone: "UTC" };
}

const reportTimezoneSchema = z.object({
  report_timezone: timeZoneField().refine((zone) => zone !== undefined, {
    error: messages.required("report_timezone"),
  }),
});

/** Settings, "Report time zone": the days of every report, CSV and date filter (DESIGN.md, "Time zone"). */
export async function setReportTimezone(db: Executor, merchantId: number, input: unknown): Promise<string> {
  const { report_timezone } = parseInput(reportTimezoneSchema, input);
  await db
    .update(merchants)
    .set({ reportTimezone: report_timezone, updatedAt: new Date() })
    .where(eq(merchants.id, merchantId));
  return report_timezone;
}

const defaultCurrencySchema = z.object({
  default_currency: currencyField("default_currency").refine((code) => code !== undefined, {
    error: messages.required("default_currency"),
  }),
});

/** Settings, "Default currency": what a payment or link created without a currency is in. */
export async function setDefaultCurrency(db: Executor, merchantId: number, input: unknown): Promise<string> {
  const { default_currency } = parseInput(defaultCurrencySchema, input);
  await db
    .update(merchants)
    .set({ defaultCurrency: default_currency, updatedAt: new Date() })
    .where(eq(merchants.id, merchantId));
  return default_currency!;
}

export type OnboardingProgress = { hasApiKey: boolean; hasPayment: boolean; hasEndpoint: boolean };

/** The Overview's "get started" steps, each done once the merchant has ever done it (one round trip). */
export async function getOnboardingProgress(db: Executor, merchantId: number): Promise<OnboardingProgress> {
  const [row] = await selectRows<{ has_api_key: boolean; has_payment: boolean; has_endpoint: boolean }>(
    db,
    sql`select exists (select 1 from api_tokens where merchant_id = ${merchantId}) as has_api_key,
               exists (select 1 from payments where merchant_id = ${merchantId}) as has_payment,
               exists (select 1 from webhook_endpoints where merchant_id = ${merchantId}) as has_endpoint`,
  );
  return { hasApiKey: row!.has_api_key, hasPayment: row!.has_payment, hasEndpoint: row!.has_endpoint };
}
