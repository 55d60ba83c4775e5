import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

/**
 * API tokens follow GitHub's scheme: a product prefix, 32 random bytes in base62, and a base62 CRC32 of the
 * random part. Secret scanners recognise the prefix, and a typo fails the checksum without a database query.
 */
export const TOKEN_PREFIX = "pay_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 43; // 62^43 > 2^256
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);

function toBase62(value: bigint, length: number): string {
  let text = "";
  for (let rest = value; rest > 0n; rest /= 62n) text = ALPHABET[Number(rest % 62n)]! + text;
  return text.padStart(length, "0");
}

function checksum(secret: string): string {
  return toBase62(BigInt(crc32(secret)), CHECKSUM_LENGTH);
}

export function generateToken(): string {
  const secret = toBase62(BigInt(`0x${randomBytes(32).toString("hex")}`), SECRET_LENGTH);
  return `${TOKEN_PREFIX}${secret}${checksum(secret)}`;
}

/** True when the text has the token shape and its checksum matches. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_PATTERN.test(token)) return false;
  const body = token.slice(TOKEN_PREFIX.length);
  return checksum(body.slice(0, SECRET_LENGTH)) === body.slice(SECRET_LENGTH);
}

/** What is stored and looked up: the plaintext never is. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Safe to display: the prefix and the last four characters. */
export function tokenDisplayHint(token: string): string {
  return `${TOKEN_PREFIX}…${token.slice(-4)}`;
}
