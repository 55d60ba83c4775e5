import "server-only";
import { randomBytes } from "node:crypto";

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64 (stored encrypted, see encryption.ts). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
