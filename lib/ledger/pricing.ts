import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { merchants } from "@/db/schema";
import { minorUnits } from "@/lib/money/currencies";
import { messages, parseInput } from "@/lib/platform/validation";
import { recorded, type SecurityActor } from "@/lib/security/history";

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * `merchant:pricing --percent 1.4 --fixed 0.25`: the percent (0 to 100, up to 4 decimals) and the fixed part,
 * given as an amount of a two-decimal currency (0.25) and kept as minor units (25), so it is 0.25 EUR, 25 JPY
 * or 0.025 KWD, as DESIGN.md's default 30 minor units is.
 */
const pricingSchema = z.object({
  percent: z
    .string({ error: messages.required("percent") })
    .trim()
    .refine(
      (value) => DECIMAL.test(value) && Number(value) <= 100 && (value.split(".")[1] ?? "").length <= 4,
      {
        error: "The percent field must be a number from 0 to 100 with at most 4 decimal places.",
      },
    ),
  fixed: z
    .string({ error: messages.required("fixed") })
    .trim()
    .refine((value) => /^\d{1,9}(\.\d{1,2})?$/.test(value), {
      error: "The fixed field must be an amount such as 0.30 (at most 2 decimal places).",
    }),
});

/** In minor units: "0.25" → "25", "1" → "100"; exact, as text. */
function minorUnitsOf(fixed: string): string {
  const [whole = "0", fraction = ""] = fixed.split(".");
  return String(BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0")));
}

/** `admin merchant:pricing`: the merchant's price; with `by`, recorded in its security history. */
export async function setMerchantPricing(
  db: Executor,
  merchantId: number,
  input: unknown,
  by?: SecurityActor,
) {
  const { percent, fixed } = parseInput(pricingSchema, input);
  const feeFixed = minorUnitsOf(fixed);
  await recorded(
    db,
    merchantId,
    by,
    "pricing.changed",
    (tx) =>
      tx
        .update(merchants)
        .set({ feePercent: percent, feeFixed, updatedAt: new Date() })
        .where(eq(merchants.id, merchantId)),
    () => `${percent}% + ${feeFixed} minor units per completed payment`,
  );
  return { merchant_id: merchantId, percent, fixed_minor_units: Number(feeFixed) };
}

/** The dispute fee: 15.00, 1500 in a zero-decimal currency, 15.000 in a three-decimal one. */
export function disputeFee(currency: string): string {
  const units = minorUnits(currency);
  return units === 0 ? "1500" : `15.${"0".repeat(units)}`;
}
