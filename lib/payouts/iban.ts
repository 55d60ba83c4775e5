import { z } from "zod";
import { stringField } from "@/lib/platform/validation";

/** DESIGN.md's test IBANs: the first pays out, the second's bank account is closed (its payouts fail). */
export const TEST_IBANS = { pays: "DE89370400440532013000", closed: "GB33BUKB20201555555555" } as const;
export const CLOSED_ACCOUNT = "The bank account is closed.";

/**
 * An IBAN as ISO 13616 checks it: a country code, two check digits and up to 30 letters or digits, whose
 * number (letters as 10..35, the first four characters moved to the end) leaves 1 divided by 97. Spaces are
 * allowed in, dropped out; any case in, upper case out.
 */
export function normalIban(text: string): string | null {
  const iban = text.replace(/\s+/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return null;
  const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) =>
    String(letter.charCodeAt(0) - 55),
  );
  // Mod 97 a chunk at a time: the number has up to 70 digits.
  let remainder = 0;
  for (let index = 0; index < digits.length; index += 7)
    remainder = Number(`${remainder}${digits.slice(index, index + 7)}`) % 97;
  return remainder === 1 ? iban : null;
}

/** `iban` as the API takes it: required, and a valid IBAN ("The IBAN field must be a valid IBAN."). */
export const ibanField = stringField("iban", { required: true, max: 64 }).transform((text, ctx) => {
  const iban = normalIban(text);
  if (!iban) {
    ctx.addIssue({ code: "custom", message: "The IBAN field must be a valid IBAN." });
    return z.NEVER;
  }
  return iban;
});
