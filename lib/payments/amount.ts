import { isLosslessNumber } from "lossless-json";
import { z } from "zod";
import { messages } from "@/lib/platform/validation";

// An amount in and out: a decimal string with two decimals, parsed without floating point (DESIGN.md).

export const MAX_AMOUNT = "999999999999.99";

// A plain decimal numeral (no exponent, no hex, no `+`); a `-` is read, so a negative amount is told so.
const DECIMAL_NUMERAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** Normalises a valid amount to exactly two decimals without floating-point arithmetic: "12.5" → "12.50". */
function toMoneyString(numeral: string): string {
  const unsigned = numeral.replace(/^-/, "");
  const [whole = "", fraction = ""] = unsigned.split(".");
  const integerPart = whole.replace(/^0+(?=\d)/, "") || "0";
  return `${integerPart}.${fraction.padEnd(2, "0").slice(0, 2)}`;
}

function compareMoney(a: string, b: string): number {
  const [aWhole, aFraction] = a.split(".") as [string, string];
  const [bWhole, bFraction] = b.split(".") as [string, string];
  if (aWhole.length !== bWhole.length) return aWhole.length - bWhole.length;
  return aWhole === bWhole ? aFraction.localeCompare(bFraction) : aWhole.localeCompare(bWhole);
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
  if (significant.length - point > 2) return `${sign}0.001`;
  if (point >= OVER_MAX_DIGITS) return `${sign}1${"0".repeat(OVER_MAX_DIGITS)}`;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${significant}`;
  if (point >= significant.length) return `${sign}${significant}${"0".repeat(point - significant.length)}`;
  return `${sign}${significant.slice(0, point)}.${significant.slice(point)}`;
}

/**
 * `amount`: a JSON number or a string holding a plain decimal numeral; at least 0 (a payment) or more than 0
 * (`positive`: a refund), at most two decimal places, at most 999999999999.99. Output is the normalised
 * two-decimal string that is stored and returned. The API passes a JSON number as it was sent (a
 * LosslessNumber): 12.3400000000000001 has more than two decimals even though the nearest double prints as
 * 12.34.
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
        // Exponent notation only appears for very large or very small numbers.
        if (/e/i.test(numeral))
          return fail(
            Math.abs(value) >= 1 ? messages.max("amount", MAX_AMOUNT) : messages.decimals("amount", "0-2"),
          );
      } else if (typeof value === "string" && DECIMAL_NUMERAL.test(value)) {
        numeral = value;
      } else {
        return fail(messages.number("amount"));
      }
      const negative = numeral.startsWith("-") && /[1-9]/.test(numeral);
      const below = positive ? messages.gt("amount", 0) : messages.min("amount", 0);
      if (negative) return fail(below);
      if ((numeral.split(".")[1] ?? "").length > 2) return fail(messages.decimals("amount", "0-2"));
      const money = toMoneyString(numeral);
      if (positive && money === "0.00") return fail(below);
      if (compareMoney(money, MAX_AMOUNT) > 0) return fail(messages.max("amount", MAX_AMOUNT));
      return money;
    })
    .meta({
      description: `Amount in standard units: ${positive ? "more than" : "at least"} 0, at most 999999999999.99, at most two decimal places.`,
      anyOf: [
        {
          type: "number",
          ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }),
          maximum: 999999999999.99,
          multipleOf: 0.01,
        },
        { type: "string", pattern: "^(\\d+(\\.\\d{0,2})?|\\.\\d{1,2})$" },
      ],
      examples: [12.5],
    });
}

/** A payment's amount: at least 0. */
export const amountSchema = amountField({ positive: false });
