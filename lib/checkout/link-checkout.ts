import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { inMinorUnits } from "@/lib/money/amount";
import { createPayment } from "@/lib/payments/create-payment";
import { merchantHandle } from "@/lib/platform/ids";
import { consumeRateLimit } from "@/lib/platform/rate-limit";
import { fieldErrorsFrom } from "@/lib/platform/validation";
import { addressRetryAt } from "./card-testing";
import { payAtCheckout, type CheckoutAnswer } from "./checkouts";
import { SLUG_LENGTH } from "./payment-links";
import { cardInputSchema } from "./test-cards";

/**
 * Payments made from links by one client address per hour: the authentication card leaves a payment pending,
 * so a script could otherwise fill Payments with them. Well above a QA run's 100 test payments an hour.
 */
const LINK_PAYMENTS_PER_ADDRESS_PER_HOUR = 200;

export type PublicPaymentLink = {
  id: number;
  merchantId: number;
  merchantName: string;
  name: string;
  amount: string;
  currency: string;
  description: string | null;
  active: boolean;
};

/** A link as a payer reaches it, by its slug; undefined when the slug names none. */
export async function findPaymentLinkBySlug(
  db: Executor,
  slug: string,
): Promise<PublicPaymentLink | undefined> {
  const handle = merchantHandle.parse(slug, SLUG_LENGTH);
  if (!handle) return undefined;
  const [link] = await selectRows<{
    id: number | string;
    merchant_id: number | string;
    amount: string;
    active: boolean;
    name: string;
    description: string | null;
    merchant_name: string;
    currency: string;
  }>(
    db,
    sql`select l.id, l.merchant_id, l.amount::text as amount, l.currency, l.active, l.name, l.description,
               m.name as merchant_name
        from payment_links l join merchants m on m.id = l.merchant_id
        where l.slug = ${slug} ${handle.merchantId === undefined ? sql`` : sql`and l.merchant_id = ${handle.merchantId}`}`,
  );
  return link
    ? {
        id: Number(link.id),
        merchantId: Number(link.merchant_id),
        merchantName: link.merchant_name,
        name: link.name,
        amount: inMinorUnits(link.amount, link.currency),
        currency: link.currency,
        description: link.description,
        active: link.active,
      }
    : undefined;
}

/** What a payer's first card at a link came to; `checkoutToken` once it made the payment. */
export type LinkAttempt = { answer: CheckoutAnswer; checkoutToken?: string };

/**
 * A payer submits the card form at `/l/{slug}` (DESIGN.md, "Payment links"): only now is a payment made (source
 * `link`, waiting for its payer), and the card is tried at its checkout, where the payer goes on. Opening the
 * link, reloading it, or a form refused for its fields (or a refused address) makes nothing.
 */
export async function payByLink(
  db: Executor,
  slug: string,
  input: unknown,
  clientIp: string,
  autoSettleMs: number,
): Promise<LinkAttempt> {
  const link = await findPaymentLinkBySlug(db, slug);
  if (!link) return { answer: { kind: "not_found" } };
  if (!link.active) return { answer: { kind: "inactive" } };
  const retryAt = await addressRetryAt(db, clientIp);
  if (retryAt) return { answer: { kind: "limited", retryAt } };
  const card = cardInputSchema.safeParse(input);
  if (!card.success) return { answer: { kind: "invalid", errors: fieldErrorsFrom(card.error) } };
  const made = await consumeRateLimit(db, `link:${clientIp}`, LINK_PAYMENTS_PER_ADDRESS_PER_HOUR, 3600);
  if (!made.allowed)
    return { answer: { kind: "limited", retryAt: new Date(Date.now() + made.retryAfterSeconds * 1000) } };
  const { checkoutToken } = await createPayment(
    db,
    link.merchantId,
    { amount: link.amount, currency: link.currency },
    { source: "link", autoSettleMs, paymentLinkId: link.id },
  );
  return { answer: await payAtCheckout(db, checkoutToken!, input, clientIp), checkoutToken };
}
