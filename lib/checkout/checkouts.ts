import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import type { PaymentFailureCode, PaymentStatus } from "@/db/enums";
import { onceMoreOnConflict } from "@/db/errors";
import type { PaymentMethod } from "@/db/schema";
import { scheduleDispute } from "@/lib/disputes/simulator";
import { inMinorUnits } from "@/lib/money/amount";
import { checkoutTokenMerchant, hashCheckoutToken, isCheckoutToken } from "@/lib/payments/checkout-token";
import { COMPLETED } from "@/lib/payments/processor";
import { settleByPayer } from "@/lib/payments/settlement";
import type { FieldErrors } from "@/lib/platform/errors";
import { fieldErrorsFrom } from "@/lib/platform/validation";
import { addressRetryAt, countRefusedCard, isCheckoutLocked } from "./card-testing";
import {
  AUTHENTICATION_FAILED,
  CHECKOUT_MESSAGES,
  cardInputSchema,
  paymentMethodOf,
  testCardOutcome,
} from "./test-cards";

/** Everything the page shows, read by its token: never the token itself, never another payment. */
export type CheckoutPage = {
  paymentId: number;
  merchantId: number;
  merchantName: string;
  amount: string;
  currency: string;
  externalId: string | null;
  status: PaymentStatus;
  failureReason: string | null;
  paymentMethod: PaymentMethod | null;
  returnUrl: string | null;
  /** The card waiting at the authentication step, if one is. */
  authentication: PaymentMethod | null;
  locked: boolean;
  link: { name: string; description: string | null } | null;
};

type CheckoutRow = {
  payment_id: number | string;
  merchant_id: number | string;
  merchant_name: string;
  amount: string;
  currency: string;
  external_id: string | null;
  status: PaymentStatus;
  failure_reason: string | null;
  payment_method: PaymentMethod | string | null;
  return_url: string | null;
  authentication: PaymentMethod | string | null;
  declined_attempts: number;
  link_name: string | null;
  link_description: string | null;
};

const parsedJson = <T>(value: T | string | null): T | null =>
  typeof value === "string" ? (JSON.parse(value) as T) : value;

function toCheckoutPage(row: CheckoutRow): CheckoutPage {
  return {
    paymentId: Number(row.payment_id),
    merchantId: Number(row.merchant_id),
    merchantName: row.merchant_name,
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    externalId: row.external_id,
    status: row.status,
    failureReason: row.failure_reason,
    paymentMethod: parsedJson(row.payment_method),
    returnUrl: row.return_url,
    authentication: parsedJson(row.authentication),
    locked: isCheckoutLocked(Number(row.declined_attempts)),
    link: row.link_name === null ? null : { name: row.link_name, description: row.link_description },
  };
}

async function checkoutMerchant(db: Executor, tokenHash: string): Promise<number | undefined> {
  const [row] = await selectRows<{ merchant_id: number | string }>(
    db,
    sql`select merchant_id from checkouts where token_hash = ${tokenHash}`,
  );
  return row ? Number(row.merchant_id) : undefined;
}

/** The checkout a token names, its payment and merchant; `lock` holds its row to the end of the transaction. */
async function readCheckout(db: Executor, token: string, lock = false): Promise<CheckoutPage | undefined> {
  if (!isCheckoutToken(token)) return undefined;
  const hash = hashCheckoutToken(token);
  // A token made before tokens named their merchant is looked up without a lock first (on Citus every shard
  // is asked), so that the lock below is taken on one merchant's shard.
  const merchant = checkoutTokenMerchant(token) ?? (lock ? await checkoutMerchant(db, hash) : undefined);
  if (lock && merchant === undefined) return undefined;
  const [row] = await selectRows<CheckoutRow>(
    db,
    sql`select c.payment_id, c.merchant_id, m.name as merchant_name, p.amount::text as amount, p.currency,
               p.external_id, p.status, p.failure_reason, p.payment_method, c.return_url, c.authentication,
               c.declined_attempts, l.name as link_name, l.description as link_description
        from checkouts c
        join payments p on p.id = c.payment_id and p.merchant_id = c.merchant_id
        join merchants m on m.id = c.merchant_id
        left join payment_links l on l.id = c.payment_link_id and l.merchant_id = c.merchant_id
        where c.token_hash = ${hash} ${merchant === undefined ? sql`` : sql`and c.merchant_id = ${merchant}`}
        ${lock ? sql`for update of c` : sql``}`,
  );
  return row ? toCheckoutPage(row) : undefined;
}

/** The page a payer opens at `/pay/{token}`; undefined for a token that names no checkout. */
export function findCheckout(db: Executor, token: string): Promise<CheckoutPage | undefined> {
  return readCheckout(db, token);
}

/** Where the payer goes after paying: the merchant's return_url with `payment_id` and `status` added. */
export function returnUrlFor(page: Pick<CheckoutPage, "returnUrl" | "paymentId">, status: PaymentStatus) {
  if (!page.returnUrl) return null;
  const url = new URL(page.returnUrl);
  url.searchParams.set("payment_id", String(page.paymentId));
  url.searchParams.set("status", status);
  return url.href;
}

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
  if (!isCheckoutToken(token)) return { kind: "not_found" };
  const retryAt = await addressRetryAt(db, clientIp);
  if (retryAt) return { kind: "limited", retryAt };
  return onceMoreOnConflict(() =>
    db.transaction(async (tx) => {
      const page = await readCheckout(tx, token, true);
      if (!page) return { kind: "not_found" };
      if (page.status !== "pending") return finalAnswer(page, true);
      if (page.locked) return { kind: "locked" };
      const answer = await work(tx, page);
      if (answer.kind !== "final") return answer;
      // Settled by someone else between the read and the transition: what they decided is the answer.
      const now = (await readCheckout(tx, token))!;
      return finalAnswer(now, answer.already || now.status !== answer.status);
    }),
  );
}

async function settle(
  tx: Transaction,
  page: CheckoutPage,
  outcome: { status: "completed" } | { status: "failed"; code: PaymentFailureCode; reason: string },
  paymentMethod: PaymentMethod,
): Promise<CheckoutAnswer> {
  const failureReason = outcome.status === "failed" ? outcome.reason : null;
  const settled = await settleByPayer(tx, page.paymentId, page.merchantId, {
    ...(outcome.status === "failed"
      ? { outcome: "failed", failureCode: outcome.code, failureReason: outcome.reason }
      : COMPLETED),
    paymentMethod,
  });
  await selectRows(
    tx,
    sql`update checkouts set authentication = null
        where payment_id = ${page.paymentId} and merchant_id = ${page.merchantId}`,
  );
  return { kind: "final", status: outcome.status, failureReason, redirectUrl: null, already: !settled };
}

/**
 * A payer pays with a card (`card_number`, `expiry`, `cvc`, `name`). Test cards decide the outcome; any other
 * valid number is refused ("Use a test card number.") and counts toward the card-testing limits. The card's
 * number and CVC go nowhere: only its brand, last 4 and expiry are kept, on the payment.
 */
export function payAtCheckout(
  db: Executor,
  token: string,
  input: unknown,
  clientIp: string,
): Promise<CheckoutAnswer> {
  return attempt(db, token, clientIp, async (tx, page) => {
    const parsed = cardInputSchema.safeParse(input);
    if (!parsed.success) return { kind: "invalid", errors: fieldErrorsFrom(parsed.error) };
    const paymentMethod = paymentMethodOf(parsed.data);
    const outcome = testCardOutcome(parsed.data);
    if (outcome === null) {
      await countRefusedCard(tx, page, clientIp);
      return { kind: "invalid", errors: { card_number: [CHECKOUT_MESSAGES.notTestCard] } };
    }
    if (outcome.kind === "authentication") {
      await selectRows(
        tx,
        sql`update checkouts set authentication = ${JSON.stringify(paymentMethod)}::json
            where payment_id = ${page.paymentId} and merchant_id = ${page.merchantId}`,
      );
      return { kind: "authentication", paymentMethod };
    }
    if (outcome.kind === "disputed") {
      const answer = await settle(tx, page, { status: "completed" }, paymentMethod);
      if (answer.kind === "final" && !answer.already)
        await scheduleDispute(tx, page.merchantId, page.paymentId, outcome);
      return answer;
    }
    return settle(
      tx,
      page,
      outcome.kind === "completed"
        ? { status: "completed" }
        : { status: "failed", code: outcome.code, reason: outcome.reason },
      paymentMethod,
    );
  });
}

/** The payer at the authentication step: "Complete authentication" pays, "Fail authentication" fails it. */
export function finishAuthentication(
  db: Executor,
  token: string,
  result: "complete" | "fail",
  clientIp: string,
): Promise<CheckoutAnswer> {
  return attempt(db, token, clientIp, async (tx, page) => {
    if (!page.authentication)
      return { kind: "invalid", errors: { authentication: ["No authentication is waiting."] } };
    return settle(
      tx,
      page,
      result === "complete" ? { status: "completed" } : { status: "failed", ...AUTHENTICATION_FAILED },
      page.authentication,
    );
  });
}
