// The hosted pages a payer pays on: a payment's checkout and the payment links that make payments.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  json,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { merchantIdColumn } from "./accounts";
import { createdAt, rowId, updatedAt, sameMerchantKey } from "./columns";
import { type PaymentMethod, payments } from "./payments";

/**
 * A payment's hosted page (`{APP_URL}/pay/{token}`), one per payment, made with it. Apart from the payment
 * row so the payments table, which every list reads, stays narrow.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    paymentId: bigint("payment_id", { mode: "number" }).notNull(),
    merchantId: merchantIdColumn(),
    /** SHA-256 (hex) of the page's token, which is how a payer's request finds it. */
    tokenHash: text("token_hash").notNull(),
    /** The token, encrypted (ENCRYPTION_KEYS): the merchant reads `checkout_url` back while it is pending. */
    tokenCiphertext: text("token_ciphertext").notNull(),
    /**
     * A processor's hosted page (Mollie's checkout, Stripe Checkout), encrypted like the token: it is the
     * payment's `checkout_url` instead of this platform's page. Null for the simulator's payments.
     */
    hostedUrlCiphertext: text("hosted_url_ciphertext"),
    /** Where the payer goes after paying (with `payment_id` and `status` added); null: the page says. */
    returnUrl: text("return_url"),
    paymentLinkId: bigint("payment_link_id", { mode: "number" }),
    /** Card numbers refused for not being test cards (a card tester's probes; test-card declines are not counted); 5 lock the page. */
    declinedAttempts: integer("declined_attempts").notNull().default(0),
    /** The card waiting at the authentication step, without its number; null when none is. */
    authentication: json("authentication").$type<PaymentMethod>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.paymentId] }),
    sameMerchantKey("checkouts_payment_fk", [t.merchantId, t.paymentId], payments).onDelete("cascade"),
    sameMerchantKey("checkouts_payment_link_fk", [t.merchantId, t.paymentLinkId], paymentLinks),
    // A payer's request finds its page by the token's hash: unique with the merchant (a sharded table's unique
    // keys start with it), and found by itself through this index.
    uniqueIndex("checkouts_merchant_token_hash_idx").on(t.merchantId, t.tokenHash),
    index("checkouts_token_hash_idx").on(t.tokenHash),
    index("checkouts_payment_link_idx")
      .on(t.paymentLinkId)
      .where(sql`payment_link_id is not null`),
  ],
);

/** A link a merchant shares (`{APP_URL}/l/{slug}`): each payer who opens it gets a payment of its own. */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: rowId(),
    merchantId: merchantIdColumn(),
    /** The link's public part: random, so links cannot be guessed. */
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull().default("USD"),
    description: text("description"),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.id] }),
    // By id alone: only the API's 403-or-404 on a miss (lib/platform/ownership.ts).
    index("payment_links_id_idx").on(t.id),
    uniqueIndex("payment_links_merchant_slug_idx").on(t.merchantId, t.slug),
    index("payment_links_slug_idx").on(t.slug),
    index("payment_links_merchant_idx").on(
      t.merchantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);
