import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNotNull, ne } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { EndpointKind } from "@/db/enums";
import { webhookEndpoints } from "@/db/schema";
import { encryptSecret } from "@/lib/platform/encryption";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import { recorded, type SecurityActor } from "@/lib/security/history";
import { createEndpointSchema, updateEndpointSchema } from "./endpoint-schemas";
import { isPrivateAddress } from "./network-guard";
import { generateWebhookSecret } from "./secrets";

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

export const ownedBy = (merchantId: number, endpointId: number) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId));

export type WebhookEndpointSummary = {
  id: number;
  kind: EndpointKind;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  /** The first failed attempt since the last success; null while it is healthy. */
  failingSince: Date | null;
  /** An inbox's chosen answer: a status or a timeout, and for how many more deliveries (null: until changed). */
  inboxResponseStatus: number | null;
  inboxResponseTimeout: boolean;
  inboxResponseRemaining: number | null;
  createdAt: Date;
};

/** An inbox's chosen answer, as the endpoint summary carries it. */
export type InboxAnswerColumns = Pick<
  WebhookEndpointSummary,
  "inboxResponseStatus" | "inboxResponseTimeout" | "inboxResponseRemaining"
>;

const summaryColumns = {
  id: webhookEndpoints.id,
  kind: webhookEndpoints.kind,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  eventTypes: webhookEndpoints.eventTypes,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  failingSince: webhookEndpoints.failingSince,
  inboxResponseStatus: webhookEndpoints.inboxResponseStatus,
  inboxResponseTimeout: webhookEndpoints.inboxResponseTimeout,
  inboxResponseRemaining: webhookEndpoints.inboxResponseRemaining,
  createdAt: webhookEndpoints.createdAt,
};

/**
 * Refuses a URL the merchant already has, unless they confirmed it: two endpoints on one URL means every
 * event arrives twice, which is rarely what was meant.
 */
async function checkDuplicateUrl(
  db: Executor,
  merchantId: number,
  url: string,
  exceptEndpointId?: number,
): Promise<void> {
  const [existing] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.merchantId, merchantId),
        eq(webhookEndpoints.url, url),
        exceptEndpointId ? ne(webhookEndpoints.id, exceptEndpointId) : undefined,
      ),
    )
    .limit(1);
  if (existing)
    throw new DomainError(
      "conflict",
      "You already have an endpoint with this URL; each event would arrive twice.",
      {
        url: [`Endpoint ${existing.id} already uses this URL.`],
      },
    );
}

export type EndpointWriteOptions = { allowDuplicateUrl?: boolean };

/** The endpoint as the security history names it. */
export const endpointLabel = (endpoint: { id: number; url: string; kind?: string }) =>
  endpoint.url.startsWith("inbox://") ? `inbox ${endpoint.id}` : `endpoint ${endpoint.id} ${endpoint.url}`;

export async function createWebhookEndpoint(
  db: Executor,
  merchantId: number,
  input: unknown,
  options: EndpointWriteOptions = {},
  by?: SecurityActor,
) {
  const data = parseInput(createEndpointSchema, input);
  if (data.url !== undefined) {
    checkUrlPolicy(data.url);
    if (!options.allowDuplicateUrl) await checkDuplicateUrl(db, merchantId, data.url);
  }
  const secret = generateWebhookSecret();
  const row = await recorded(
    db,
    merchantId,
    by,
    "webhook_endpoint.created",
    async (tx) => {
      const [inserted] = await tx
        .insert(webhookEndpoints)
        .values({
          merchantId,
          kind: data.kind,
          // An inbox is never dialled; its name only has to be unique and say what it is.
          url: data.url ?? `inbox://${randomBytes(8).toString("hex")}`,
          description: data.description || null,
          eventTypes: data.events,
          secretCiphertext: encryptSecret(secret),
        })
        .returning(summaryColumns);
      return inserted!;
    },
    endpointLabel,
  );
  return { ...row, secret };
}

/** Changes an endpoint's URL, description or event types; the same URL rules as adding one. */
export async function updateWebhookEndpoint(
  db: Executor,
  merchantId: number,
  endpointId: number,
  input: unknown,
  options: EndpointWriteOptions = {},
): Promise<WebhookEndpointSummary> {
  const data = parseInput(updateEndpointSchema, input);
  if (data.url !== undefined || data.inbox_response !== undefined) {
    const { kind } = await getWebhookEndpoint(db, merchantId, endpointId);
    if (data.url !== undefined && kind === "inbox")
      throw validationError({ url: ["An inbox has no url: it captures deliveries inside the platform."] });
    if (data.inbox_response !== undefined && kind !== "inbox")
      throw validationError({
        inbox_response: ["The inbox_response field applies to inbox endpoints only."],
      });
  }
  if (data.url !== undefined) {
    checkUrlPolicy(data.url);
    if (!options.allowDuplicateUrl) await checkDuplicateUrl(db, merchantId, data.url, endpointId);
  }
  const answer = data.inbox_response;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(data.url !== undefined ? { url: data.url } : {}),
      ...(data.description !== undefined ? { description: data.description || null } : {}),
      ...(data.events !== undefined ? { eventTypes: data.events } : {}),
      ...(answer !== undefined
        ? {
            inboxResponseStatus: answer?.status ?? null,
            inboxResponseTimeout: answer?.timeout ?? false,
            inboxResponseRemaining: answer?.count ?? null,
          }
        : {}),
      updatedAt: new Date(),
    })
    .where(ownedBy(merchantId, endpointId))
    .returning(summaryColumns);
  if (!row) throw new DomainError("not_found", "Webhook endpoint not found.");
  return row;
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

/** Endpoints the platform disabled (410 Gone, failing for 5 days) that nobody has re-enabled or deleted since. */
export async function listPlatformDisabledEndpoints(
  db: Executor,
  merchantId: number,
): Promise<{ id: number; url: string; disabledReason: string }[]> {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      disabledReason: webhookEndpoints.disabledReason,
    })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.merchantId, merchantId),
        eq(webhookEndpoints.enabled, false),
        isNotNull(webhookEndpoints.disabledReason),
      ),
    )
    .orderBy(webhookEndpoints.id);
  return rows.map((row) => ({ ...row, disabledReason: row.disabledReason ?? "" }));
}

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

/** An endpoint owned by the merchant: the one `work` returned, or not found (and nothing recorded). */
export async function ownedEndpoint<T extends { id: number; url: string }>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (!row) throw new DomainError("not_found", "Webhook endpoint not found.");
  return row;
}

export async function deleteWebhookEndpoint(
  db: Executor,
  merchantId: number,
  endpointId: number,
  by?: SecurityActor,
) {
  await recorded(
    db,
    merchantId,
    by,
    "webhook_endpoint.deleted",
    (tx) =>
      ownedEndpoint(
        tx
          .delete(webhookEndpoints)
          .where(ownedBy(merchantId, endpointId))
          .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url }),
      ),
    endpointLabel,
  );
}
