import { isLosslessNumber } from "lossless-json";
import { z } from "zod";
import { validationError, type FieldErrors } from "@/lib/platform/errors";
import { fieldErrorsFrom, messages } from "@/lib/platform/validation";
import { currencyField, minorUnits } from "./currencies";

// An amount in and out: a decimal string with exactly its currency's minor units ("12.50" EUR, "1500" JPY,
// "1.250" KWD), parsed and compared without floating point (DESIGN.md, "Currencies").

/** The most major units an amount has; with the largest fraction its currency has (maxAmount). */
export const MAX_AMOUNT = "999999999999.99";

/** The largest amount in `currency`, in its decimals: 999999999999 JPY, 999999999999.99 EUR, …999 KWD. */
export function maxAmount(currency: string): string {
  const places = minorUnits(currency);
  return places === 0 ? "999999999999" : `999999999999.${"9".repeat(places)}`;
}

/** Whether a plain unsigned numeral is above the largest amount in `currency`. */
export function exceedsMaxAmount(numeral: string, currency: string): boolean {
  return compareNumerals(numeral, maxAmount(currency)) > 0;
}
/** The most decimals any accepted currency has (CLF, 4): a numeral with more is refused whatever its currency. */
const MOST_DECIMALS = 4;

// A plain decimal numeral (no exponent, no hex, no `+`); a `-` is read, so a negative amount is told so.
const DECIMAL_NUMERAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** Compares two unsigned plain numerals by value, as text: "1000" > "999.99", "12.5" = "12.50". */
function compareNumerals(a: string, b: string): number {
  const [aWhole = "", aFraction = ""] = a.split(".");
  const [bWhole = "", bFraction = ""] = b.split(".");
  const aInteger = aWhole.replace(/^0+/, "");
  const bInteger = bWhole.replace(/^0+/, "");
  if (aInteger.length !== bInteger.length) return aInteger.length - bInteger.length;
  if (aInteger !== bInteger) return aInteger < bInteger ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const [x, y] = [aFraction.padEnd(width, "0"), bFraction.padEnd(width, "0")];
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * A numeral written with exactly `places` decimals, never rounding: "12.5" → "12.50", "1500.00" → "1500"
 * (zeros only). Digits that would be cut are kept: an amount stored before its currency was known.
 */
export function withDecimals(numeral: string, places: number): string {
  // Most stored amounts are written already (12.50 in EUR): returned as they are, with no split or regex.
  if (isWrittenWith(numeral, places)) return numeral;
  const negative = numeral.startsWith("-");
  const [whole = "", fraction = ""] = (negative ? numeral.slice(1) : numeral).split(".");
  const integer = whole.replace(/^0+(?=\d)/, "") || "0";
  const kept = fraction.replace(/0+$/, "");
  const digits = kept.length > places ? fraction : fraction.padEnd(places, "0").slice(0, places);
  return `${negative ? "-" : ""}${integer}${digits ? `.${digits}` : ""}`;
}

/** Whether a numeral is unsigned, has no leading zero, and has exactly `places` decimals. */
function isWrittenWith(numeral: string, places: number): boolean {
  const dot = numeral.indexOf(".");
  const wholeDigits = dot < 0 ? numeral.length : dot;
  const first = numeral.charCodeAt(0);
  if (wholeDigits === 0 || first < 48 || first > 57 || (first === 48 && wholeDigits > 1)) return false;
  return places === 0 ? dot < 0 : dot > 0 && numeral.length - dot - 1 === places;
}

/** An amount written in its currency's minor units: "1500" JPY, "12.50" EUR, "1.250" KWD. */
export function inMinorUnits(amount: string, currency: string): string {
  return withDecimals(amount, minorUnits(currency));
}

/** Why an amount (amountField's numeral) cannot be in `currency`, or null: more decimals, or over the maximum. */
export function amountRefusal(numeral: string, currency: string): string | null {
  const places = minorUnits(currency);
  if ((numeral.split(".")[1] ?? "").length > places) return messages.decimalsAtMost("amount", places);
  if (exceedsMaxAmount(numeral, currency)) return messages.max("amount", maxAmount(currency));
  return null;
}

/** A JSON number as lossless-json keeps it: sign, digits, optional fraction and exponent. */
const JSON_NUMERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** More integer digits than any amount has (999999999999.99 has 12): the value is over the maximum. */
const OVER_MAX_DIGITS = 13;

/**
 * A JSON number's exact value as a plain numeral, checked as a string is: the exponent moves the point
 * (`125e-2` is 1.25, `1e-400` has 400 decimal places), never through a double, which reads `1e-400` as 0;
 * trailing zeros after the point say nothing (12.500 is 12.5). Past an amount's range only the verdict
 * matters, so a stand-in with the same one is returned: `1e999999999` never spells out its zeros.
 */
function jsonNumberValue(numeral: string): string {
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = JSON_NUMERAL.exec(numeral) ?? [];
  const all = `${whole}${fraction}`;
  const digits = all.replace(/^0+/, "");
  const significant = digits.replace(/0+$/, "");
  if (!significant) return "0";
  // How many of the significant digits stand before the point (below 0: zeros come first after it).
  const point = whole.length - (all.length - digits.length) + Number(exponent);
  if (significant.length - point > MOST_DECIMALS) return `${sign}0.${"0".repeat(MOST_DECIMALS)}1`;
  if (point >= OVER_MAX_DIGITS) return `${sign}1${"0".repeat(OVER_MAX_DIGITS)}`;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${significant}`;
  if (point >= significant.length) return `${sign}${significant}${"0".repeat(point - significant.length)}`;
  return `${sign}${significant.slice(0, point)}.${significant.slice(point)}`;
}

/**
 * `amount`: a JSON number or a string holding a plain decimal numeral; at least 0 (a payment) or more than 0
 * (`positive`: a refund, a link). Out: the exact numeral, unsigned, its decimals as a string was written
 * ("12.500" has three) or as a number's value has them; amountIn then holds it to its currency's minor units
 * and the maximum. The API passes a JSON number as it was sent (a LosslessNumber): 12.3400000000000001 has
 * more than two decimals even though the nearest double prints as 12.34.
 */
export function amountField({ positive }: { positive: boolean }) {
  return z
    .unknown()
    .transform((sent, ctx): string => {
      const value = isLosslessNumber(sent) ? jsonNumberValue(sent.value) : sent;
      const fail = (message: string) => {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      };
      if (value === undefined || value === null || value === "") return fail(messages.required("amount"));
      let numeral: string;
      if (typeof value === "number") {
        if (!Number.isFinite(value)) return fail(messages.number("amount"));
        numeral = String(value);
        // Exponent notation only appears for very large or very small numbers: a large one stands in as a
        // numeral over every maximum, so amountRefusal words it in its currency.
        if (/e/i.test(numeral)) {
          if (Math.abs(value) < 1) return fail(messages.decimalsAtMost("amount", MOST_DECIMALS));
          numeral = `${value < 0 ? "-" : ""}1${"0".repeat(OVER_MAX_DIGITS)}`;
        }
      } else if (typeof value === "string" && DECIMAL_NUMERAL.test(value)) {
        numeral = value;
      } else {
        return fail(messages.number("amount"));
      }
      const negative = numeral.startsWith("-") && /[1-9]/.test(numeral);
      const below = positive ? messages.gt("amount", 0) : messages.min("amount", 0);
      if (negative) return fail(below);
      const unsigned = numeral.replace(/^-/, "");
      if (positive && !/[1-9]/.test(unsigned)) return fail(below);
      const [whole = "", fraction] = unsigned.split(".");
      return fraction === undefined
        ? whole.replace(/^0+(?=\d)/, "") || "0"
        : `${whole.replace(/^0+/, "") || "0"}.${fraction}`;
    })
    .meta({
      description: `Amount in standard units: ${positive ? "more than" : "at least"} 0, at most 999999999999 and the largest fraction of its currency (999999999999.99 EUR, 999999999999 JPY), with at most the currency's minor units of decimals (0 for JPY, 2 for EUR, 3 for KWD).`,
      anyOf: [
        {
          type: "number",
          ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }),
          maximum: 999999999999.9999,
        },
        { type: "string", pattern: "^(\\d+(\\.\\d{0,3})?|\\.\\d{1,3})$" },
      ],
      examples: [12.5],
    });
}

/** A payment's amount: at least 0. */
export const amountSchema = amountField({ positive: false });

const moneyFields = z.object({ amount: amountSchema, currency: currencyField() });

/**
 * Parses a body with an amount and an optional currency (a payment, a link): every field's refusal in one
 * 422, the amount's decimals for its currency among them, and the amount written in that currency. The
 * default currency is read only when the body names none and its amount is otherwise valid.
 */
export async function parseWithMoney<Schema extends z.ZodType<{ amount: string; currency?: string }>>(
  schema: Schema,
  input: unknown,
  defaultCurrency: () => string | Promise<string>,
): Promise<{ data: z.output<Schema>; amount: string; currency: string }> {
  const parsed = schema.safeParse(input);
  const errors: FieldErrors = parsed.success ? {} : fieldErrorsFrom(parsed.error);
  const money = moneyFields.safeParse(input);
  let currency = "";
  if (money.success) {
    currency = money.data.currency ?? (await defaultCurrency());
    const refusal = amountRefusal(money.data.amount, currency);
    if (refusal) errors.amount = [refusal];
  }
  if (!parsed.success || Object.keys(errors).length > 0) throw validationError(errors);
  return { data: parsed.data, amount: inMinorUnits(parsed.data.amount, currency), currency };
}
