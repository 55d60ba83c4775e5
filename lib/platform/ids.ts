import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random, URL-safe public id such as `evt_…`: 22 base62 characters carry ~131 bits. */
export function publicId(prefix: string, length = 22): string {
  const bytes = randomBytes(length * 2);
  let id = "";
  // Rejection sampling keeps every character equally likely.
  for (let i = 0; i < bytes.length && id.length < length; i++)
    if (bytes[i]! < 248) id += ALPHABET[bytes[i]! % 62];
  return `${prefix}_${id.padEnd(length, "0")}`;
}

/**
 * A public id whose first 9 characters are the time in milliseconds (base 36, fixed width), then 13 random
 * base62 characters (~77 bits): ids made close together sort close together, so an index on them grows at
 * one end instead of touching a random page per insert (the API request log writes one per request).
 */
export function timeOrderedId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, "0");
  return `${prefix}_${time}${publicId(prefix, 13).slice(prefix.length + 1)}`;
}
