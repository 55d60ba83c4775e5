import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor } from "@/db/client";
import type { ConnectedProcessor, PaymentSource } from "@/db/enums";
import { isIdempotencyKeyReused, onceMoreOnConflict } from "@/db/errors";
import { merchantDefaultCurrency } from "@/lib/accounts/merchants";
import { parseWithMoney } from "@/lib/money/amount";
import { encryptSecret } from "@/lib/platform/encryption";
import { DomainError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import {
  checkoutTokenForKey,
  checkoutUrl,
  keyedTokenHashes,
  newCheckoutToken,
  type NewCheckoutToken,
} from "./checkout-token";
import { IDEMPOTENCY_KEY_REUSED, keyCutoff, paymentMadeForKey, requestHash } from "./idempotency";
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
  /**
   * Makes it at the environment's processor first (lib/processors): its hosted page is the checkout, and the
   * payment is written only once the processor has it. Its failure writes nothing.
   */
  atProcessor?: (payment: PaymentAtProcessor) => Promise<HostedPayment>;
};

/** What the processor is asked to take: the checkout's token names the page the payer comes back to. */
export type PaymentAtProcessor = {
  amount: string;
  currency: string;
  externalId: string | null;
  checkoutToken: string;
  /** The merchant's Idempotency-Key, when it sent one: the processor's own key is made from it. */
  idempotencyKey: string | undefined;
};

/** A payment as its processor made it. */
export type HostedPayment = { processor: ConnectedProcessor; id: string; hostedUrl: string };

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
  /** Made at a processor first; null for the simulator's. */
  hosted?: HostedPayment | null;
};

/**
 * The whole creation as one call of the database's `create_payment` (db/functions/payments.sql: the key's
 * claim, the merchant's sequence, the payment, its customer, checkout page, day's pending totals and
 * `payment.pending` event with deliveries, top to bottom), so one round trip, and on Citus one call the
 * coordinator hands to the merchant's worker. Without a key, `key` is null. Exported so the benchmark's bare
 * baseline runs the same call.
 */
export function createPaymentCall(
  merchantId: number,
  payment: NewPayment,
  eventId: string,
  key: { key: string; hash: string } | null = null,
): SQL {
  const hosted = payment.hosted ?? null;
  return sql`select create_payment(${merchantId}::bigint, ${eventId}::text, ${payment.external_id}::text,
    ${payment.customer_id}::text, ${payment.amount}::numeric, ${payment.currency}::text,
    ${payment.metadata}::text, ${payment.source}::text, ${payment.autoSettleMs}::int, ${payment.return_url}::text,
    ${payment.paymentLinkId}::bigint, ${payment.checkout.hash}::text, ${payment.checkout.ciphertext}::text,
    ${hosted?.hostedUrl ?? checkoutUrl(payment.checkout.token)}::text, ${!onCitus()}::boolean,
    ${key?.key ?? null}::text, ${key?.hash ?? null}::text, ${keyCutoff()}::timestamptz,
    ${hosted?.processor ?? "simulator"}::text, ${hosted?.id ?? null}::text,
    ${hosted ? encryptSecret(hosted.hostedUrl) : null}::text) as created`;
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

/** How many lapsed uses of a key a processor payment may meet before its generations run out. */
const KEY_GENERATIONS = 16;

/**
 * A key reused after it lapsed (the contract's 24 hours) with the same body makes a new payment, whose token and
 * processor key must differ from the earlier one's: the first generation no checkout holds yet. A retry of this
 * request finds the same one (it made no checkout), so the processor still replays its own first attempt.
 */
async function keyGeneration(db: Executor, merchantId: number, key: string, hash: string): Promise<number> {
  const hashes = keyedTokenHashes(merchantId, key, hash, KEY_GENERATIONS);
  const taken = await selectRows<{ token_hash: string }>(
    db,
    sql`select token_hash from checkouts where merchant_id = ${merchantId}
        and token_hash in (${sql.join(
          hashes.map((each) => sql`${each}`),
          sql`, `,
        )})`,
  );
  const generation = hashes.findIndex((each) => !taken.some((row) => row.token_hash === each));
  if (generation === -1)
    throw new DomainError("conflict", "This Idempotency-Key has made too many payments; send a new one.");
  return generation;
}

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
  const { idempotencyKey } = options;
  const key =
    idempotencyKey === undefined
      ? null
      : { key: idempotencyKey, hash: requestHash({ ...data, amount, currency }) };
  let checkout = newCheckoutToken(merchantId);
  let hosted: HostedPayment | null = null;
  if (options.atProcessor) {
    // A retry of a payment already made answers with it, and the processor is not asked again.
    const made = key && (await paymentMadeForKey(db, merchantId, key.key, key.hash));
    if (made) return { paymentId: made, replayed: true };
    const generation = key ? await keyGeneration(db, merchantId, key.key, key.hash) : 0;
    if (key) checkout = checkoutTokenForKey(merchantId, key.key, key.hash, generation);
    hosted = await options.atProcessor({
      amount,
      currency,
      externalId: data.external_id,
      checkoutToken: checkout.token,
      idempotencyKey: generation > 0 ? `${idempotencyKey}#${generation}` : idempotencyKey,
    });
  }
  const [row] = await onceMoreOnConflict(() =>
    selectRows<{ created: { id: number | string; replayed: boolean } }>(
      db,
      createPaymentCall(
        merchantId,
        {
          ...data,
          amount,
          currency,
          metadata,
          source: options.source,
          // A processor's payment is settled by its processor alone.
          autoSettleMs: awaitsPayer || hosted ? 0 : options.autoSettleMs,
          paymentLinkId,
          checkout,
          hosted,
        },
        publicId("evt"),
        key,
      ),
    ).catch((error: unknown) => {
      throw isIdempotencyKeyReused(error) ? new DomainError("conflict", IDEMPOTENCY_KEY_REUSED) : error;
    }),
  );
  const id = Number(row!.created.id);
  const { replayed } = row!.created;
  return { paymentId: id, replayed, checkoutToken: replayed ? undefined : checkout.token };
}
