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
