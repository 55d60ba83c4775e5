import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

/**
 * API tokens follow GitHub's scheme: a product prefix, 32 random bytes in base62, and a base62 CRC32 of the
 * random part. Secret scanners recognise the prefix, and a typo fails the checksum without a database query.
 * The prefix names where the key works (DESIGN.md, "API tokens"): `pay_live_`, `pay_test_` (a sandbox), or
 * `pay_acct_` (an account key); keys made before environments are `pay_` alone and work in the first sandbox.
 */
export const TOKEN_PREFIX = "pay_";
export const KEY_PREFIXES = { live: "pay_live_", sandbox: "pay_test_", account: "pay_acct_" } as const;
export type KeyKind = keyof typeof KEY_PREFIXES;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 43; // 62^43 > 2^256
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
// The random part has no underscore, so `pay_` alone cannot be read as another prefix.
const TOKEN_PATTERN = new RegExp(
  `^${TOKEN_PREFIX}(?:live_|test_|acct_)?([0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}})$`,
);

function toBase62(value: bigint, length: number): string {
  let text = "";
  for (let rest = value; rest > 0n; rest /= 62n) text = ALPHABET[Number(rest % 62n)]! + text;
  return text.padStart(length, "0");
}

function checksum(secret: string): string {
  return toBase62(BigInt(crc32(secret)), CHECKSUM_LENGTH);
}

export function generateToken(kind: KeyKind = "sandbox"): string {
  const secret = toBase62(BigInt(`0x${randomBytes(32).toString("hex")}`), SECRET_LENGTH);
  return `${KEY_PREFIXES[kind]}${secret}${checksum(secret)}`;
}

/** True when the text has the token shape and its checksum matches. */
export function isWellFormedToken(token: string): boolean {
  const body = TOKEN_PATTERN.exec(token)?.[1];
  return body !== undefined && checksum(body.slice(0, SECRET_LENGTH)) === body.slice(SECRET_LENGTH);
}

/** What is stored and looked up: the plaintext never is. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Safe to display: the prefix and the last four characters (`pay_test_…a1B2`). */
export function tokenDisplayHint(token: string): string {
  return `${token.slice(0, token.length - SECRET_LENGTH - CHECKSUM_LENGTH)}…${token.slice(-4)}`;
}
