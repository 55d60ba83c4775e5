import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { consumeRateLimit, peekRateLimit } from "@/lib/platform/rate-limit";

/**
 * Card-testing limits (DESIGN.md, "Checkout"), counted in the database so every process shares them. Only
 * card numbers that are not test cards count: test cards are public and useless to a card tester, and QA pays
 * with them all day. A number that is not a card at all (it fails the Luhn check) is a field error that
 * counts nowhere: no real card can be probed with it.
 */
export const CARD_TESTING_LIMITS = {
  /** Refused card numbers that lock one checkout for good (the next attempt is "Too many attempts."). */
  refusedCardsPerCheckout: 5,
  /** Refused card numbers from one client address across checkouts per hour; then every attempt is a 429. */
  refusedCardsPerAddressPerHour: 20,
};

const HOUR = 3600;
const addressKey = (clientIp: string) => `checkout:${clientIp}`;

/** When a client address may attempt again; null when it may now. */
export async function addressRetryAt(db: Executor, clientIp: string): Promise<Date | null> {
  const decision = await peekRateLimit(
    db,
    addressKey(clientIp),
    CARD_TESTING_LIMITS.refusedCardsPerAddressPerHour,
    HOUR,
  );
  return decision.allowed ? null : new Date(Date.now() + decision.retryAfterSeconds * 1000);
}

/** A refused card number: one more on its checkout (under the checkout's row lock) and on the address. */
export async function countRefusedCard(
  tx: Transaction,
  checkout: { paymentId: number; merchantId: number },
  clientIp: string,
): Promise<void> {
  await selectRows(
    tx,
    sql`update checkouts set declined_attempts = declined_attempts + 1, authentication = null
        where payment_id = ${checkout.paymentId} and merchant_id = ${checkout.merchantId}`,
  );
  await consumeRateLimit(tx, addressKey(clientIp), CARD_TESTING_LIMITS.refusedCardsPerAddressPerHour, HOUR);
}

export function isCheckoutLocked(refusedCards: number): boolean {
  return refusedCards >= CARD_TESTING_LIMITS.refusedCardsPerCheckout;
}

/** What the merchant sees of a payment's checkout on its page: how many cards it refused, and whether locked. */
export async function checkoutRefusals(
  db: Executor,
  merchantId: number,
  paymentId: number,
): Promise<{ refusedCards: number; locked: boolean } | undefined> {
  const [row] = await selectRows<{ declined_attempts: number }>(
    db,
    sql`select declined_attempts from checkouts where payment_id = ${paymentId} and merchant_id = ${merchantId}`,
  );
  if (!row) return undefined;
  const refusedCards = Number(row.declined_attempts);
  return { refusedCards, locked: isCheckoutLocked(refusedCards) };
}
