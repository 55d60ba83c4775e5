import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import type { PaymentSource } from "@/db/enums";
import { onceMoreOnConflict } from "@/db/errors";
import { merchantDefaultCurrency } from "@/lib/accounts/merchants";
import { parseWithMoney } from "@/lib/money/amount";
import { DomainError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { checkoutUrl, newCheckoutToken, type NewCheckoutToken } from "./checkout-token";
import { requestHash, runOnceForKey } from "./idempotency";
import { eventStatement } from "./outbox";
import { paymentResourceJson } from "./resource";
import { createPaymentSchema } from "./schemas";

export type CreatePaymentOptions = {
  source: PaymentSource;
  /** Delay before the simulated processor settles it; 0 leaves it pending until settled by hand. */
  autoSettleMs: number;
  /** Optional Idempotency-Key: a replay returns the first payment's id instead of creating another. */
  idempotencyKey?: string;
  /** The payment link it was opened from: it waits for its payer, as one with a return_url does. */
  paymentLinkId?: number;
  /** The merchant's default currency when the caller has read it already (the API's token lookup does). */
  defaultCurrency?: string;
  /**
   * It waits for its payer even without a return_url (the dashboard's "Wait for a payer"): the simulator's
   * auto-settler leaves it, and its checkout page shows the outcome.
   */
  waitForPayer?: boolean;
};

export type NewPayment = {
  amount: string;
  currency: string;
  external_id: string | null;
  customer_id: string | null;
  metadata: string | null;
  source: CreatePaymentOptions["source"];
  /** 0 for a payment that waits for its payer (a return_url, a payment link): the simulator leaves it. */
  autoSettleMs: number;
  return_url: string | null;
  paymentLinkId: number | null;
  checkout: NewCheckoutToken;
};

/**
 * The whole creation in one statement, so one round trip and, without an Idempotency-Key, no transaction
 * around it (a statement commits as a whole): the next sequence number from the merchant's counter, the
 * payment, its checkout page, its customer's row, its count in its day's pending totals (the merchant's and
 * its customer's: the Overview's and the lists' rollup), and its `payment.pending` event with deliveries. The
 * merchant's payment_sequences row lock orders creations, so the count is the payment's dense sequence
 * number, and created_at is the clock or the previous payment's, whichever is later, so it keeps the same
 * order (ties go by id, also taken under the lock) even where the clock is read before the lock (Citus
 * evaluates it on the coordinator); nothing
 * waits on the application while the lock is held. Exported so the benchmark's bare baseline runs the same SQL.
 */
export function createPaymentStatement(merchantId: number, payment: NewPayment, eventId: string): SQL {
  return eventStatement({
    id: eventId,
    merchantId,
    type: "payment.pending",
    paymentId: sql`inserted.id`,
    data: paymentResourceJson({
      id: sql`inserted.id`,
      external_id: sql`${payment.external_id}`,
      status: sql`'pending'`,
      amount: sql`${payment.amount}`,
      currency: sql`${payment.currency}`,
      metadata: sql`${payment.metadata}`,
      customer_id: sql`${payment.customer_id}`,
      created_at: sql`inserted.created_at`,
      checkout_url: sql`${checkoutUrl(payment.checkout.token)}`,
      payment_method: sql`null`,
      failure_code: sql`null`,
      failure_reason: sql`null`,
      fee: sql`null`,
      net: sql`null`,
    }),
    after: {
      ctes: sql`
      sequence as (
        insert into payment_sequences as s (merchant_id, payments_count, last_created_at)
        values (${merchantId}::bigint, 1, clock_timestamp())
        on conflict (merchant_id) do update
          set payments_count = s.payments_count + 1,
              last_created_at = greatest(excluded.last_created_at, s.last_created_at)
        returning payments_count as seq, last_created_at as at
      ), inserted as (
        insert into payments (merchant_id, merchant_seq, external_id, customer_id, amount, currency, metadata, source, settle_at, created_at, updated_at)
        select ${merchantId}::bigint, seq, ${payment.external_id}::text, ${payment.customer_id}::text, ${payment.amount}::numeric,
               ${payment.currency}::text,
               ${payment.metadata}::text, ${payment.source}::text,
               case when ${payment.autoSettleMs}::int > 0 then at + ${payment.autoSettleMs}::int * interval '1 millisecond' end,
               at, at
        from sequence
        returning id, created_at, amount, customer_id
      ), customer as (
        insert into customers as c (merchant_id, customer_id, payments_count, first_payment_at, last_payment_at)
        select ${merchantId}::bigint, customer_id, 1, created_at, created_at from inserted where customer_id <> ''
        on conflict (merchant_id, customer_id) do update
          set payments_count = c.payments_count + 1, last_payment_at = excluded.last_payment_at
      ), checkout as (
        insert into checkouts (payment_id, merchant_id, token_hash, token_ciphertext, return_url, payment_link_id, created_at)
        select id, ${merchantId}::bigint, ${payment.checkout.hash}::text, ${payment.checkout.ciphertext}::text,
               ${payment.return_url}::text, ${payment.paymentLinkId}::bigint, created_at
        from inserted
      ), day_total as (
        insert into payment_daily_totals as t (merchant_id, customer_id, day, status, currency, count, volume)
        select ${merchantId}::bigint, scope, (created_at at time zone 'UTC')::date, 'pending', ${payment.currency}::text, 1, amount
        from inserted, lateral (values (''), (nullif(customer_id, ''))) as scopes (scope) where scope is not null
        order by scope
        on conflict (merchant_id, customer_id, day, status, refund_state, currency)
          do update set count = t.count + 1, volume = t.volume + excluded.volume
      )`,
      from: sql`inserted`,
      returning: sql`inserted.id`,
    },
  });
}

/**
 * A payment's metadata as stored and returned: JSON text, the customer id beside the merchant's own keys (the
 * field wins), or null when there is neither. Exported so the benchmark's bare baseline stores the same.
 */
export function storedMetadata(
  metadata: Record<string, string> | null | undefined,
  customerId: string | null,
): string | null {
  const pairs = { ...metadata, ...(customerId === null ? {} : { customer_id: customerId }) };
  return Object.keys(pairs).length === 0 ? null : JSON.stringify(pairs);
}

export type CreatePaymentResult = {
  paymentId: number;
  replayed: boolean;
  /** The new payment's checkout token (its page is `/pay/{token}`); not known again on a replay. */
  checkoutToken?: string;
};

/**
 * Creates a payment and its `payment.pending` event (with deliveries) in one transaction. The one domain
 * function behind the API, the dashboard's test payments and the CLI.
 */
export async function createPayment(
  db: Executor,
  merchantId: number,
  input: unknown,
  options: CreatePaymentOptions,
): Promise<CreatePaymentResult> {
  const { data, amount, currency } = await parseWithMoney(
    createPaymentSchema,
    input,
    () => options.defaultCurrency ?? merchantDefaultCurrency(db, merchantId),
  );
  const metadata = storedMetadata(data.metadata, data.customer_id);
  const paymentLinkId = options.paymentLinkId ?? null;
  // DESIGN.md, "Who settles": a payment with a return_url, or made by a link, waits for its payer.
  const awaitsPayer = data.return_url !== null || paymentLinkId !== null || options.waitForPayer === true;
  const checkout = newCheckoutToken(merchantId);
  const created = (executor: Executor) =>
    selectRows<{ id: number | string }>(
      executor,
      createPaymentStatement(
        merchantId,
        {
          ...data,
          amount,
          currency,
          metadata,
          source: options.source,
          autoSettleMs: awaitsPayer ? 0 : options.autoSettleMs,
          paymentLinkId,
          checkout,
        },
        publicId("evt"),
      ),
    ).then(([payment]) => {
      if (!payment) throw new DomainError("not_found", "Merchant not found.");
      return Number(payment.id);
    });
  const { idempotencyKey } = options;
  if (idempotencyKey === undefined)
    return {
      paymentId: await onceMoreOnConflict(() => created(db)),
      replayed: false,
      checkoutToken: checkout.token,
    };
  const { id, replayed } = await onceMoreOnConflict(() =>
    runOnceForKey(
      db,
      merchantId,
      idempotencyKey,
      { target: "payment", hash: requestHash({ ...data, amount, currency }) },
      created,
    ),
  );
  return { paymentId: id, replayed, checkoutToken: replayed ? undefined : checkout.token };
}
