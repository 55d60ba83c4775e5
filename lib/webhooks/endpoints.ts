import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { parseInput } from "@/lib/platform/validation";
import { createEndpointSchema, testEventSchema } from "./endpoint-schemas";
import { isPrivateAddress } from "./network-guard";
import { wakeWebhookWorkers } from "./outbox";
import { decryptSecret, encryptSecret, generateWebhookSecret } from "./secrets";

/** After a rotation the old secret keeps signing beside the new one for this long. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

export function allowsPrivateNetworks(): boolean {
  const env = getEnv();
  return env.NODE_ENV !== "production" || env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS;
}

/** Production refuses plain http and literal private addresses up front; DNS names are checked at send time. */
function checkUrlPolicy(url: string): void {
  if (allowsPrivateNetworks()) return;
  const { protocol, hostname } = new URL(url);
  if (protocol !== "https:") throw validationError({ url: ["The url field must use https://."] });
  if (isPrivateAddress(hostname.replace(/^\[|\]$/g, ""))) {
    throw validationError({
      url: ["The url field must not point to a private, loopback or link-local address."],
    });
  }
}

export type WebhookEndpointSummary = {
  id: number;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
};

const summaryColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  eventTypes: webhookEndpoints.eventTypes,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  createdAt: webhookEndpoints.createdAt,
};

export async function createWebhookEndpoint(db: Executor, merchantId: number, input: unknown) {
  const data = parseInput(createEndpointSchema, input);
  checkUrlPolicy(data.url);
  const secret = generateWebhookSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      merchantId,
      url: data.url,
      description: data.description || null,
      eventTypes: data.events,
      secretCiphertext: encryptSecret(secret),
    })
    .returning(summaryColumns);
  return { ...row!, secret };
}

export function listWebhookEndpoints(db: Executor, merchantId: number): Promise<WebhookEndpointSummary[]> {
  return db
    .select(summaryColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId))
    .orderBy(desc(webhookEndpoints.id));
}

export async function getWebhookEndpoint(
  db: Executor,
  merchantId: number,
  endpointId: number,
): Promise<WebhookEndpointSummary> {
  const [row] = await db
    .select(summaryColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)));
  if (!row) throw new DomainError("not_found", "Webhook endpoint not found.");
  return row;
}

const ownedBy = (merchantId: number, endpointId: number) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId));

export async function setWebhookEndpointEnabled(
  db: Executor,
  merchantId: number,
  endpointId: number,
  enabled: boolean,
) {
  const rows = await db
    .update(webhookEndpoints)
    .set({ enabled, disabledReason: null, failingSince: null, updatedAt: new Date() })
    .where(ownedBy(merchantId, endpointId))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw new DomainError("not_found", "Webhook endpoint not found.");
}

export async function deleteWebhookEndpoint(db: Executor, merchantId: number, endpointId: number) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(ownedBy(merchantId, endpointId))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw new DomainError("not_found", "Webhook endpoint not found.");
}

/** The current signing secret, shown on request in the dashboard. */
export async function revealWebhookSecret(
  db: Executor,
  merchantId: number,
  endpointId: number,
): Promise<string> {
  const [row] = await db
    .select({ secret: webhookEndpoints.secretCiphertext })
    .from(webhookEndpoints)
    .where(ownedBy(merchantId, endpointId));
  if (!row) throw new DomainError("not_found", "Webhook endpoint not found.");
  return decryptSecret(row.secret);
}

/** A new secret; the old one keeps signing alongside it for 24 h so receivers can switch without failures. */
export async function rotateWebhookSecret(
  db: Executor,
  merchantId: number,
  endpointId: number,
): Promise<string> {
  const secret = generateWebhookSecret();
  const rows = await db
    .update(webhookEndpoints)
    .set({
      previousSecretCiphertext: sql`${webhookEndpoints.secretCiphertext}`,
      previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_TTL_MS),
      secretCiphertext: encryptSecret(secret),
      updatedAt: new Date(),
    })
    .where(ownedBy(merchantId, endpointId))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw new DomainError("not_found", "Webhook endpoint not found.");
  return secret;
}

/** Sends a signed sample of an event type to one endpoint, through the normal delivery path. */
export async function sendTestEvent(
  db: Executor,
  merchantId: number,
  endpointId: number,
  input: unknown,
): Promise<string> {
  const { event } = parseInput(testEventSchema, input);
  await getWebhookEndpoint(db, merchantId, endpointId);
  const status = event.slice("payment.".length);
  const sample = {
    id: 0,
    external_id: "test_order_1",
    type: "payment",
    status,
    amount: "12.50",
    metadata: '{"customer_id":"cus_test"}',
    created_at: new Date().toISOString(),
  };
  const eventId = publicId("evt");
  await db.transaction(async (tx) => {
    await tx.insert(events).values({ id: eventId, merchantId, paymentId: null, type: event, data: sample });
    await tx.insert(webhookDeliveries).values({ merchantId, eventId, endpointId });
    await wakeWebhookWorkers(tx);
  });
  return eventId;
}
