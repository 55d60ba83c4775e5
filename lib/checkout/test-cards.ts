import { z } from "zod";
import type { DisputeReason, PaymentFailureCode } from "@/db/enums";
import type { PaymentMethod } from "@/db/schema";

/**
 * The simulator's test cards (DESIGN.md, "Checkout"): what each number does when a payer pays with it. Any
 * other card, however valid, is refused ("Use a test card number."): no real card is ever taken.
 */
export type CardOutcome =
  | { kind: "completed" }
  | { kind: "declined"; code: PaymentFailureCode; reason: string }
  | { kind: "authentication" }
  /** Completes, then the payer's bank disputes it a few seconds later (an inquiry moves no money). */
  | { kind: "disputed"; reason: DisputeReason; inquiry: boolean };

const TEST_CARDS: Record<string, CardOutcome> = {
  "4242424242424242": { kind: "completed" },
  "4000000000000002": { kind: "declined", code: "card_declined", reason: "Your card was declined." },
  "4000000000009995": {
    kind: "declined",
    code: "insufficient_funds",
    reason: "Your card has insufficient funds.",
  },
  "4000000000000069": { kind: "declined", code: "expired_card", reason: "Your card has expired." },
  "4000002760003184": { kind: "authentication" },
  "4000000000000259": { kind: "disputed", reason: "fraudulent", inquiry: false },
  "4000000000002685": { kind: "disputed", reason: "product_not_received", inquiry: false },
  "4000000000001976": { kind: "disputed", reason: "fraudulent", inquiry: true },
};

/** Why a payer failed the authentication step, as the payment's failure_code and failure_reason. */
export const AUTHENTICATION_FAILED = {
  code: "authentication_failed",
  reason: "The payer failed authentication.",
} as const satisfies { code: PaymentFailureCode; reason: string };

export const CHECKOUT_MESSAGES = {
  notTestCard: "Use a test card number.",
  number: "Your card number is invalid.",
  expiryFormat: "Enter the expiration date as MM / YY.",
  expiryPast: "Your card's expiration date is in the past.",
  cvc: "Your card's security code is invalid.",
  name: "Enter the name on the card.",
  locked: "Too many attempts.",
  inactiveLink: "This payment link is no longer active.",
};

/**
 * A form posted without script is sent back to its page with its field errors in the URL as message names
 * (`card_number:number,expiry:expiryPast`), never as text: a crafted URL can only show the page's own words.
 */
export function encodeFieldErrors(errors: Record<string, string[]>): string {
  const names = Object.entries(CHECKOUT_MESSAGES);
  return Object.entries(errors)
    .flatMap(([field, list]) =>
      list.flatMap((message) =>
        names.filter(([, text]) => text === message).map(([name]) => `${field}:${name}`),
      ),
    )
    .join(",");
}

/** The field errors a page was sent back with, read from `encodeFieldErrors`' form; unknown names are dropped. */
export function decodeFieldErrors(encoded: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const pair of (encoded ?? "").split(",")) {
    const [field = "", name = ""] = pair.split(":");
    const text = Object.hasOwn(CHECKOUT_MESSAGES, name)
      ? CHECKOUT_MESSAGES[name as keyof typeof CHECKOUT_MESSAGES]
      : undefined;
    if (text && ["card_number", "expiry", "cvc", "name"].includes(field)) (errors[field] ??= []).push(text);
  }
  return errors;
}

/** The Luhn checksum every card number carries. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand by its number's prefix, as a card form shows it. */
function brandOf(digits: string): string {
  if (digits.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^6(011|5)/.test(digits)) return "discover";
  return "unknown";
}

/** "Visa", "Mastercard": a brand as the dashboard prints it. */
export function brandLabel(brand: string): string {
  const labels: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express" };
  return labels[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** A card as the payer and the merchant read it: "Visa •••• 4242". */
export function cardLabel(card: PaymentMethod): string {
  return `${brandLabel(card.brand)} •••• ${card.last4}`;
}

/** `12 / 34`, `12/34` or `1234`; two-digit years are 20YY. */
const EXPIRY = /^(\d{2})\s*\/?\s*(\d{2})$/;

/**
 * The card as the payer typed it. The number and CVC live only in this request's memory: what is kept is
 * `paymentMethod` (brand, last 4, expiry).
 */
export const cardInputSchema = z.object({
  card_number: z
    .string({ error: CHECKOUT_MESSAGES.number })
    .transform((value) => value.replace(/[\s-]/g, ""))
    .refine((digits) => /^\d{12,19}$/.test(digits) && passesLuhn(digits), CHECKOUT_MESSAGES.number),
  expiry: z.string({ error: CHECKOUT_MESSAGES.expiryFormat }).transform((value, ctx) => {
    const match = EXPIRY.exec(value.trim());
    const month = Number(match?.[1]);
    if (!match || month < 1 || month > 12) {
      ctx.addIssue({ code: "custom", message: CHECKOUT_MESSAGES.expiryFormat });
      return z.NEVER;
    }
    const year = 2000 + Number(match[2]);
    const now = new Date();
    // A card is good through the last day of its month.
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
      ctx.addIssue({ code: "custom", message: CHECKOUT_MESSAGES.expiryPast });
      return z.NEVER;
    }
    return { month, year };
  }),
  cvc: z.string({ error: CHECKOUT_MESSAGES.cvc }).regex(/^\d{3}$/, CHECKOUT_MESSAGES.cvc),
  name: z
    .string({ error: CHECKOUT_MESSAGES.name })
    .trim()
    .min(1, CHECKOUT_MESSAGES.name)
    .max(200, CHECKOUT_MESSAGES.name)
    .refine((value) => value.isWellFormed() && !value.includes("\0"), CHECKOUT_MESSAGES.name),
});
export type CardInput = z.output<typeof cardInputSchema>;

/** What is kept of a card: never the number or the CVC. */
export function paymentMethodOf(card: CardInput): PaymentMethod {
  return {
    type: "card",
    brand: brandOf(card.card_number),
    last4: card.card_number.slice(-4),
    exp_month: card.expiry.month,
    exp_year: card.expiry.year,
  };
}

/** What paying with this card does; null for a valid number that is not a test card. */
export function testCardOutcome(card: CardInput): CardOutcome | null {
  return TEST_CARDS[card.card_number] ?? null;
}
