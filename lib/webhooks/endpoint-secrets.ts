import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/encryption";
import { recorded, type SecurityActor } from "@/lib/security/history";
import { endpointLabel, ownedBy, ownedEndpoint } from "./endpoints";
import { generateWebhookSecret } from "./secrets";

// An endpoint's signing secret after it is made (endpoints.ts): shown on request, and rotated with the old one
// kept beside it for a while. Each is recorded in the security history when someone did it.

/** After a rotation the old secret keeps signing beside the new one for this long. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/** The current signing secret, shown on request in the dashboard; with `by`, the showing is recorded. */
export async function revealWebhookSecret(
  db: Executor,
  merchantId: number,
  endpointId: number,
  by?: SecurityActor,
): Promise<string> {
  const row = await recorded(
    db,
    merchantId,
    by,
    "webhook_secret.revealed",
    (tx) =>
      ownedEndpoint(
        tx
          .select({
            id: webhookEndpoints.id,
            url: webhookEndpoints.url,
            secret: webhookEndpoints.secretCiphertext,
          })
          .from(webhookEndpoints)
          .where(ownedBy(merchantId, endpointId)),
      ),
    endpointLabel,
  );
  return decryptSecret(row.secret);
}

/** A new secret; the old one keeps signing alongside it for 24 h so receivers can switch without failures. */
export async function rotateWebhookSecret(
  db: Executor,
  merchantId: number,
  endpointId: number,
  by?: SecurityActor,
): Promise<string> {
  const secret = generateWebhookSecret();
  await recorded(
    db,
    merchantId,
    by,
    "webhook_secret.rotated",
    (tx) =>
      ownedEndpoint(
        tx
          .update(webhookEndpoints)
          .set({
            previousSecretCiphertext: sql`${webhookEndpoints.secretCiphertext}`,
            previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_TTL_MS),
            secretCiphertext: encryptSecret(secret),
            updatedAt: new Date(),
          })
          .where(ownedBy(merchantId, endpointId))
          .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url }),
      ),
    endpointLabel,
  );
  return secret;
}
