import "server-only";
import type { CurrencyChoices } from "@/components/currency-select";
import { getDb } from "@/db/client";
import { merchantDefaultCurrency } from "@/lib/accounts/merchants";
import { CURRENCY_CODES } from "@/lib/money/currencies";

/** What a form's currency select offers: every accepted code, the merchant's default chosen. */
export async function currencyChoices(merchantId: number): Promise<CurrencyChoices> {
  return { codes: CURRENCY_CODES, defaultCurrency: await merchantDefaultCurrency(getDb(), merchantId) };
}
