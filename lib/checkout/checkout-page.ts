import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import type { PaymentStatus, Processor } from "@/db/enums";
import type { PaymentMethod } from "@/db/schema";
import { inMinorUnits } from "@/lib/money/amount";
import { checkoutTokenMerchant, hashCheckoutToken, isCheckoutToken } from "@/lib/payments/checkout-token";
import { isCheckoutLocked } from "./card-testing";

// The payer's page as read by its token (`/pay/{token}`), and where the payer goes after it; paying at it is
// checkouts.ts.

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
  /** Who takes it: a processor's payment is paid on the processor's page, and this one only says how it stands. */
  processor: Processor;
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
  processor: Processor;
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
    processor: row.processor,
  };
}

/** The merchant of a checkout found by its token's hash alone (a token made before tokens named it). */
export async function checkoutMerchant(db: Executor, tokenHash: string): Promise<number | undefined> {
  const [row] = await selectRows<{ merchant_id: number | string }>(
    db,
    sql`select merchant_id from checkouts where token_hash = ${tokenHash}`,
  );
  return row ? Number(row.merchant_id) : undefined;
}

/** The checkout a token names, its payment and merchant; `lock` holds its row to the end of the transaction. */
export async function readCheckout(
  db: Executor,
  token: string,
  lock = false,
): Promise<CheckoutPage | undefined> {
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
               c.declined_attempts, l.name as link_name, l.description as link_description, p.processor
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
