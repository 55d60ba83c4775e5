import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getEnv } from "@/lib/platform/env";

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

let cachedKey: Buffer | undefined;

/**
 * Signing secrets must be recoverable to sign, so they are encrypted (AES-256-GCM) rather than hashed, with a
 * key derived from AUTH_SECRET: a database dump alone reveals none of them.
 */
function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const secret = getEnv().AUTH_SECRET;
  if (!secret)
    throw new Error(
      "AUTH_SECRET is required to encrypt webhook secrets (npm run dev generates one into .env.local).",
    );
  cachedKey = Buffer.from(hkdfSync("sha256", secret, "payments-webhook-secrets", "aes-256-gcm", 32));
  return cachedKey;
}

export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64"),
    cipher.getAuthTag().toString("base64"),
    ciphertext.toString("base64"),
  ].join(".");
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !ciphertext) throw new Error("Unreadable webhook secret.");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString(
    "utf8",
  );
}
