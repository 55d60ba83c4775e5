import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random bytes drawn 4 KiB at a time and each used once: a request id then costs no call into the kernel's
 * random source of its own (it was 9 µs of a 350 µs list request), as Node's own randomUUID caches.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `length` random base62 characters; rejection sampling keeps every character equally likely. */
export function randomChars(length: number): string {
  let chars = "";
  while (chars.length < length) {
    const byte = randomByte();
    if (byte < 248) chars += ALPHABET[byte % 62];
  }
  return chars;
}

/**
 * A public handle a payer's request carries (a checkout token, a payment link's slug): `{merchant id}_{random}`,
 * so the request's statements name the merchant's shard from the start (docs/scaling.md). The prefix is not
 * trusted: the handle is matched whole. Handles made before it are the random part alone.
 */
export const merchantHandle = {
  make: (merchantId: number, length: number): string => `${merchantId}_${randomChars(length)}`,
  /** The same handle for the same bytes (secret ones: derivedBytes), drawn as randomChars draws. */
  from(merchantId: number, length: number, bytes: Buffer): string {
    let chars = "";
    for (const byte of bytes) if (byte < 248 && chars.length < length) chars += ALPHABET[byte % 62];
    if (chars.length < length) throw new Error("Too few bytes for a handle");
    return `${merchantId}_${chars}`;
  },
  /** Whether `value` can be a handle at all, and the merchant it names (undefined for an older handle). */
  parse(value: string, length: number): { merchantId: number | undefined } | undefined {
    const match = new RegExp(`^(?:([1-9][0-9]{0,17})_)?[0-9A-Za-z]{${length}}$`).exec(value);
    if (!match) return undefined;
    return { merchantId: match[1] === undefined ? undefined : Number(match[1]) };
  },
};

/** A random, URL-safe public id such as `evt_…`: 22 base62 characters carry ~131 bits. */
export function publicId(prefix: string, length = 22): string {
  return `${prefix}_${randomChars(length)}`;
}

/**
 * A public id whose first 9 characters are the time in milliseconds (base 36, fixed width), then 13 random
 * base62 characters (~77 bits): ids made close together sort close together, so an index on them grows at
 * one end instead of touching a random page per insert (the API request log writes one per request).
 */
export function timeOrderedId(prefix: string, at = Date.now()): string {
  const time = at.toString(36).padStart(9, "0");
  return `${prefix}_${time}${randomChars(13)}`;
}

/** The time (epoch milliseconds) a `timeOrderedId` was made at; null for an id not made by it. */
export function timeOfOrderedId(id: string): number | null {
  const time = /^[a-z]+_([0-9a-z]{9})[0-9A-Za-z]{13}$/.exec(id)?.[1];
  return time === undefined ? null : parseInt(time, 36);
}
