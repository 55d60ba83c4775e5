import { data as iso4217 } from "currency-codes";
import { z } from "zod";
import { isStorableText, messages } from "@/lib/platform/validation";

// The currencies an amount may be in, and each one's minor units, from ISO 4217 (the `currency-codes`
// package, which follows ISO's published list). Not from Intl: ICU's CLDR data gives the digits a currency is
// usually *shown* with, which differ from ISO's for fifteen of them (HUF, IDR, COP, PKR… 0 in CLDR, 2 in
// ISO; IQD 0 against 3). docs/decisions.md lists them.

/**
 * ISO 4217 codes that name no currency a payment can be in: precious metals, bond-market units, SDRs, the
 * testing code and "no currency" (their minor units are "N.A." in ISO's list).
 */
const NOT_MONEY = new Set([
  "XAG",
  "XAU",
  "XBA",
  "XBB",
  "XBC",
  "XBD",
  "XDR",
  "XPD",
  "XPT",
  "XSU",
  "XTS",
  "XUA",
  "XXX",
]);

const supportedByIntl = new Set(Intl.supportedValuesOf("currency"));

/** Every accepted code with its ISO 4217 minor units: `JPY` 0, `EUR` 2, `KWD` 3. */
const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  iso4217
    .filter((entry) => !NOT_MONEY.has(entry.code) && supportedByIntl.has(entry.code))
    .map((entry) => [entry.code, entry.digits]),
);

/** The accepted codes, sorted: the Settings choice and the API's documentation list them. */
export const CURRENCY_CODES: readonly string[] = [...MINOR_UNITS.keys()].sort();

export const DEFAULT_CURRENCY = "USD";

export function isCurrency(code: string): boolean {
  return MINOR_UNITS.has(code);
}

/**
 * The number of decimals an amount in `currency` has, in and out: 0 for JPY, 2 for EUR, 3 for KWD. A code
 * outside the list can only be stored data from before it (a display currency the runtime's Intl knew, such
 * as the withdrawn HRK, became a default in migration 0033): it reads with two, as most currencies do, rather
 * than failing every page that shows it. New input is held to the list by `currencyField`.
 */
export function minorUnits(currency: string): number {
  return MINOR_UNITS.get(currency) ?? 2;
}

/**
 * `currency` as the API and the dashboard take it: an ISO 4217 code in any case, upper case out; optional
 * (the merchant's default applies). Anything else is Laravel's `in` refusal on the field.
 */
export function currencyField(field = "currency") {
  return z
    .unknown()
    .transform((sent, ctx): string | undefined => {
      if (sent === undefined || sent === null || sent === "") return undefined;
      if (typeof sent !== "string") {
        ctx.addIssue({ code: "custom", message: messages.string(field) });
        return z.NEVER;
      }
      const code = sent.trim().toUpperCase();
      if (!isStorableText(sent) || !isCurrency(code)) {
        ctx.addIssue({ code: "custom", message: messages.in(field) });
        return z.NEVER;
      }
      return code;
    })
    .meta({
      description:
        "ISO 4217 code, any case in, upper case out. Omitted: the merchant's default currency (Settings).",
      type: "string",
      pattern: "^[A-Za-z]{3}$",
      examples: ["EUR"],
    })
    .optional();
}

/**
 * A dashboard page's currency filter, read from its URL (any case): a code that is not ISO 4217 filters
 * nothing instead of failing the page (the Payments and All transactions filters).
 */
export const currencyFilter = () =>
  z
    .string()
    .transform((code) => code.trim().toUpperCase())
    .refine(isCurrency)
    .optional()
    .catch(undefined);
