import "server-only";
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/platform/env";

/**
 * What the password step hands to the second-factor step: the user id and an expiry, signed (HMAC-SHA256
 * under a key derived from AUTH_SECRET), so the browser carries no password between the two steps and a
 * forged or stale challenge is refused.
 */
const LIFETIME_MS = 5 * 60 * 1000;

function signingKey(): Buffer {
  const secret = getEnv().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is required to sign in.");
  return Buffer.from(hkdfSync("sha256", secret, "payments-sign-in-challenge", "hmac-sha256", 32));
}

const sign = (payload: string) => createHmac("sha256", signingKey()).update(payload).digest("base64url");

export function createSignInChallenge(userId: number): string {
  const payload = `${userId}.${Date.now() + LIFETIME_MS}.${randomBytes(9).toString("base64url")}`;
  return `${payload}.${sign(payload)}`;
}

/** The user id a challenge was made for, or null when it is forged, malformed or expired. */
export function readSignInChallenge(challenge: string): number | null {
  const parts = challenge.split(".");
  if (parts.length !== 4) return null;
  const payload = parts.slice(0, 3).join(".");
  const given = Buffer.from(parts[3]!);
  const expected = Buffer.from(sign(payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [userId, expiresAt] = parts.map(Number);
  if (!Number.isSafeInteger(userId) || !(expiresAt! > Date.now())) return null;
  return userId!;
}
