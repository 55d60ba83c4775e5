import "server-only";
import { createHash } from "node:crypto";
import { decryptSecret, derivedBytes, encryptSecret } from "@/lib/platform/encryption";
import { appOrigin } from "@/lib/platform/env";
import { merchantHandle } from "@/lib/platform/ids";
import { logger } from "@/lib/platform/logger";

/** `{merchant id}_` and 43 base62 characters: 32 random bytes' worth (62^43 > 2^256); see merchantHandle. */
const TOKEN_LENGTH = 43;

/** A new checkout page's token, as it is stored: found by its hash, read back (for checkout_url) decrypted. */
export type NewCheckoutToken = { token: string; hash: string; ciphertext: string };

export function newCheckoutToken(merchantId: number): NewCheckoutToken {
  const token = merchantHandle.make(merchantId, TOKEN_LENGTH);
  return { token, hash: hashCheckoutToken(token), ciphertext: encryptSecret(token) };
}

/**
 * The token of a payment made at a processor under an Idempotency-Key: the same on every retry of the request,
 * since the processor keeps the first attempt's return page (its idempotency replays it), yet unguessable. A key
 * reused after it lapsed makes a new payment: `generation` counts those (keyGeneration).
 */
export function checkoutTokenForKey(
  merchantId: number,
  idempotencyKey: string,
  requestHash: string,
  generation = 0,
): NewCheckoutToken {
  const token = keyedToken(merchantId, idempotencyKey, requestHash, generation);
  return { token, hash: hashCheckoutToken(token), ciphertext: encryptSecret(token) };
}

/** The hashes of a key's first `count` generations of tokens, as checkouts store them. */
export function keyedTokenHashes(
  merchantId: number,
  idempotencyKey: string,
  requestHash: string,
  count: number,
): string[] {
  return Array.from({ length: count }, (_, generation) =>
    hashCheckoutToken(keyedToken(merchantId, idempotencyKey, requestHash, generation)),
  );
}

function keyedToken(merchantId: number, idempotencyKey: string, requestHash: string, generation: number) {
  const seed = `${merchantId}:${idempotencyKey}:${requestHash}${generation > 0 ? `:${generation}` : ""}`;
  return merchantHandle.from(merchantId, TOKEN_LENGTH, derivedBytes("checkout token", seed, 96));
}

/** The merchant a token names; undefined for a token made before tokens named it. */
export function checkoutTokenMerchant(token: string): number | undefined {
  return merchantHandle.parse(token, TOKEN_LENGTH)?.merchantId;
}

export function hashCheckoutToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a path segment can be a token at all: anything else names no checkout, with no query. */
export function isCheckoutToken(value: string): boolean {
  return merchantHandle.parse(value, TOKEN_LENGTH) !== undefined;
}

/** `{APP_URL}/pay/{token}`: the page a payer pays on. */
export function checkoutUrl(token: string): string {
  return `${appOrigin()}/pay/${token}`;
}

/**
 * A pending payment's `checkout_url` from what is stored: a processor's hosted page when it has one, else this
 * platform's page from its token; null when the key has left ENCRYPTION_KEYS (logged, not thrown).
 */
export function checkoutUrlOf(
  ciphertext: string | null | undefined,
  hostedUrlCiphertext: string | null = null,
): string | null {
  if (!ciphertext && !hostedUrlCiphertext) return null;
  try {
    return hostedUrlCiphertext ? decryptSecret(hostedUrlCiphertext) : checkoutUrl(decryptSecret(ciphertext!));
  } catch (error) {
    logger.warn({ err: error }, "A checkout token could not be decrypted; its checkout_url reads as null");
    return null;
  }
}
