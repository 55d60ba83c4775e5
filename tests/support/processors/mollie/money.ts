// Amounts as Mollie writes them: `{currency, value}` with the value a string holding exactly the currency's decimals
// (docs.mollie.com/payments/multicurrency lists the currencies and their decimal places). Kept in minor units here.
import { apiError, isRecord, type ApiResponse } from "./common";

/** The multicurrency page's table: every listed currency has 2 decimals except ISK and JPY. */
const ZERO_DECIMALS = new Set(["ISK", "JPY"]);
const SUPPORTED = new Set(
  (
    "AED AUD BGN BRL CAD CHF CZK DKK EUR GBP HKD HUF ILS ISK JPY MXN MYR NOK NZD PHP PLN RON RUB SEK SGD THB TWD " +
    "USD ZAR"
  ).split(" "),
);

export interface Money {
  currency: string;
  minor: number;
}

export function decimalsOf(currency: string): number {
  return ZERO_DECIMALS.has(currency) ? 0 : 2;
}

export function formatAmount({ currency, minor }: Money): { currency: string; value: string } {
  const decimals = decimalsOf(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  const value = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return { currency, value: `${sign}${value}` };
}

/**
 * Reads an amount object from a request body. `field` names it in the error (`amount`), and its parts get
 * `amount.currency` / `amount.value`, as Mollie's 422 answers point at the offending field.
 */
export function parseAmount(input: unknown, field: string): Money | ApiResponse {
  if (input === undefined || input === null) return apiError(422, `The ${field} is required`, field);
  if (!isRecord(input))
    return apiError(422, `The ${field} must be an object with a currency and a value`, field);
  const { currency, value } = input;
  if (typeof currency !== "string" || !SUPPORTED.has(currency)) {
    return apiError(422, "The currency is invalid or not supported", `${field}.currency`);
  }
  // "Non-string values are not accepted", and "make sure to send the right amount of decimals".
  if (typeof value !== "string") return apiError(422, "The amount value must be a string", `${field}.value`);
  const decimals = decimalsOf(currency);
  const pattern = decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${decimals}}$`);
  if (!pattern.test(value)) {
    return apiError(
      422,
      `The amount contains an invalid value: ${currency} takes exactly ${decimals} decimals`,
      `${field}.value`,
    );
  }
  const minor = Number(value.replace(".", ""));
  if (!Number.isSafeInteger(minor)) return apiError(422, "The amount is higher than the maximum", field);
  return { currency, minor };
}

export function isMoney(value: Money | ApiResponse): value is Money {
  return "minor" in value;
}

/**
 * The stand-in's fee rule, the flat rate its Methods API lists as `pricing`: 0.29 in the payment's currency plus
 * 1.8% of the amount, each rounded half up to the currency's decimals. Refunds carry no fee.
 */
export const FEE_FIXED = "0.29";
export const FEE_VARIABLE_PERCENT = "1.8";

export function paymentFee({ currency, minor }: Money): Money {
  const scale = 10 ** decimalsOf(currency);
  const fixed = Math.round(0.29 * scale);
  const variable = Math.floor((minor * 18 + 500) / 1000);
  return { currency, minor: fixed + variable };
}
