import "server-only";
import { sql } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import type { DisputeReason, PaymentFailureCode, PaymentStatus } from "@/db/enums";
import { onceMoreOnConflict } from "@/db/errors";
import type { PaymentMethod } from "@/db/schema";
import { DISPUTE_OPEN_DELAY_MS } from "@/lib/disputes/simulator";
import { checkoutTokenMerchant, hashCheckoutToken, isCheckoutToken } from "@/lib/payments/checkout-token";
import { getEnv } from "@/lib/platform/env";
import type { FieldErrors } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { fieldErrorsFrom } from "@/lib/platform/validation";
import { addressRetryAt, CARD_TESTING_LIMITS, countRefusedCard } from "./card-testing";
import { checkoutMerchant, readCheckout, returnUrlFor, type CheckoutPage } from "./checkout-page";
import {
  AUTHENTICATION_FAILED,
  CHECKOUT_MESSAGES,
  cardInputSchema,
  paymentMethodOf,
  testCardOutcome,
} from "./test-cards";

/** What an attempt at the page came to. */
export type CheckoutAnswer =
  | {
      kind: "final";
      status: "completed" | "failed";
      failureReason: string | null;
      redirectUrl: string | null;
      /** It was already final before this attempt (another tab, a cancel, the expirer). */
      already: boolean;
    }
  | { kind: "authentication"; paymentMethod: PaymentMethod }
  | { kind: "invalid"; errors: FieldErrors }
  | { kind: "locked" }
  | { kind: "limited"; retryAt: Date }
  /** A payment link that was turned off: it takes no payment. */
  | { kind: "inactive" }
  | { kind: "not_found" };

function finalAnswer(page: CheckoutPage, already: boolean): CheckoutAnswer {
  const status = page.status === "completed" ? "completed" : "failed";
  return {
    kind: "final",
    status,
    failureReason: page.failureReason,
    redirectUrl: returnUrlFor(page, status),
    already,
  };
}

/**
 * Runs one attempt at a checkout: refused while the client address is over its hourly refused cards, then,
 * under the checkout's row lock (two tabs paying queue here), checked against its state. The payment's own transition
 * (`status = 'pending'` in its UPDATE) decides races with a cancel or the expirer: one transition, one event.
 */
async function attempt(
  db: Executor,
  token: string,
  clientIp: string,
  work: (tx: Transaction, page: CheckoutPage) => Promise<CheckoutAnswer>,
): Promise<CheckoutAnswer> {
  const refused = await refusedUpFront(db, token, clientIp);
  if (refused) return refused;
  return onceMoreOnConflict(() =>
    db.transaction(async (tx) => {
      const page = await readCheckout(tx, token, true);
      if (!page) return { kind: "not_found" };
      if (page.status !== "pending") return finalAnswer(page, true);
      if (page.locked) return { kind: "locked" };
      return work(tx, page);
    }),
  );
}

/** Refused before any lock: a token that is none, or a client address over its hourly refused cards. */
async function refusedUpFront(db: Executor, token: string, clientIp: string): Promise<CheckoutAnswer | null> {
  if (!isCheckoutToken(token)) return { kind: "not_found" };
  const retryAt = await addressRetryAt(db, clientIp);
  return retryAt ? { kind: "limited", retryAt } : null;
}

type PayerOutcome =
  | { status: "completed"; dispute?: { reason: DisputeReason; inquiry: boolean } }
  | { status: "failed"; code: PaymentFailureCode; reason: string };

/**
 * The payer's settle, as one call of the database's `pay_checkout` (db/functions/checkout.sql): under the
 * checkout's row lock, checked against its state, settled with the card (`paymentMethod`, or the one waiting
 * at the authentication step), and a disputing test card's dispute scheduled. The payment's own transition
 * decides races with another tab, a cancel or the expirer: one transition, one event.
 */
async function settleAtCheckout(
  db: Executor,
  token: string,
  clientIp: string,
  outcome: PayerOutcome,
  paymentMethod: PaymentMethod | "authenticated",
): Promise<CheckoutAnswer> {
  const refused = await refusedUpFront(db, token, clientIp);
  if (refused) return refused;
  const hash = hashCheckoutToken(token);
  const merchantId = checkoutTokenMerchant(token) ?? (await checkoutMerchant(db, hash));
  if (merchantId === undefined) return { kind: "not_found" };
  const failed = outcome.status === "failed" ? outcome : null;
  const dispute = outcome.status === "completed" ? outcome.dispute : undefined;
  const [row] = await onceMoreOnConflict(() =>
    selectRows<{ paid: PaidAtCheckout }>(
      db,
      sql`select pay_checkout(${merchantId}::bigint, ${hash}::text, ${publicId("evt")}::text, ${outcome.status}::text,
        ${failed?.code ?? null}::text, ${failed?.reason ?? null}::text,
        ${paymentMethod === "authenticated" ? null : JSON.stringify(paymentMethod)}::json,
        ${paymentMethod === "authenticated"}::boolean, ${getEnv().BALANCE_AVAILABLE_AFTER}::bigint,
        ${!onCitus()}::boolean, ${CARD_TESTING_LIMITS.refusedCardsPerCheckout}::int, ${dispute?.reason ?? null}::text,
        ${dispute?.inquiry ?? false}::boolean, ${DISPUTE_OPEN_DELAY_MS}::int) as paid`,
    ),
  );
  const paid = row!.paid;
  if (!paid.found) return { kind: "not_found" };
  if (paid.locked) return { kind: "locked" };
  if (paid.unauthenticated)
    return { kind: "invalid", errors: { authentication: ["No authentication is waiting."] } };
  const status = paid.status === "completed" ? "completed" : "failed";
  return {
    kind: "final",
    status,
    failureReason: paid.failure_reason ?? null,
    redirectUrl: returnUrlFor(
      { returnUrl: paid.return_url ?? null, paymentId: Number(paid.payment_id) },
      status,
    ),
    already: !paid.settled,
  };
}

/** What pay_checkout answers. */
type PaidAtCheckout = {
  found: boolean;
  locked?: boolean;
  unauthenticated?: boolean;
  settled?: boolean;
  payment_id?: number | string;
  status?: PaymentStatus;
  failure_reason?: string | null;
  return_url?: string | null;
};

/**
 * A payer pays with a card (`card_number`, `expiry`, `cvc`, `name`). Test cards decide the outcome; any other
 * valid number is refused ("Use a test card number.") and counts toward the card-testing limits. The card's
 * number and CVC go nowhere: only its brand, last 4 and expiry are kept, on the payment.
 */
export async function payAtCheckout(
  db: Executor,
  token: string,
  input: unknown,
  clientIp: string,
): Promise<CheckoutAnswer> {
  const parsed = cardInputSchema.safeParse(input);
  const paymentMethod = parsed.success ? paymentMethodOf(parsed.data) : null;
  const outcome = parsed.success ? testCardOutcome(parsed.data) : null;
  if (paymentMethod && outcome && outcome.kind !== "authentication")
    return settleAtCheckout(
      db,
      token,
      clientIp,
      outcome.kind === "declined"
        ? { status: "failed", code: outcome.code, reason: outcome.reason }
        : { status: "completed", dispute: outcome.kind === "disputed" ? outcome : undefined },
      paymentMethod,
    );
  // A card that is refused, or one that waits for authentication: the checkout's own row, no money.
  return attempt(db, token, clientIp, async (tx, page) => {
    if (!parsed.success) return { kind: "invalid", errors: fieldErrorsFrom(parsed.error) };
    if (outcome === null) {
      await countRefusedCard(tx, page, clientIp);
      return { kind: "invalid", errors: { card_number: [CHECKOUT_MESSAGES.notTestCard] } };
    }
    await selectRows(
      tx,
      sql`update checkouts set authentication = ${JSON.stringify(paymentMethod)}::json
          where payment_id = ${page.paymentId} and merchant_id = ${page.merchantId}`,
    );
    return { kind: "authentication", paymentMethod: paymentMethod! };
  });
}

/** The payer at the authentication step: "Complete authentication" pays, "Fail authentication" fails it. */
export function finishAuthentication(
  db: Executor,
  token: string,
  result: "complete" | "fail",
  clientIp: string,
): Promise<CheckoutAnswer> {
  return settleAtCheckout(
    db,
    token,
    clientIp,
    result === "complete" ? { status: "completed" } : { status: "failed", ...AUTHENTICATION_FAILED },
    "authenticated",
  );
}
