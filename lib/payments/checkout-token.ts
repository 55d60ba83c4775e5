import "server-only";
import { createHash } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/platform/encryption";
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

/** The page's URL from the stored token; null when its key has left ENCRYPTION_KEYS (logged, not thrown). */
export function checkoutUrlOf(ciphertext: string | null | undefined): string | null {
  if (!ciphertext) return null;
  try {
    return checkoutUrl(decryptSecret(ciphertext));
  } catch (error) {
    logger.warn({ err: error }, "A checkout token could not be decrypted; its checkout_url reads as null");
    return null;
  }
}
