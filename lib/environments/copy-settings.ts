import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { merchants, webhookEndpoints } from "@/db/schema";
import { validationError } from "@/lib/platform/errors";
import type { SecurityActor } from "@/lib/security/history";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";

// Settings → Sandboxes' "Copy settings from" (DESIGN.md, "Live and sandboxes"): a new sandbox takes another
// environment's payout schedule, pricing and default currency (its row is the one the new row is copied from) and
// its webhook endpoints. Read before the new environment is written, then written into it: on Citus a read of
// another merchant's shard after a write to the merchants reference table is best avoided in one transaction.

export type EndpointToCopy = {
  kind: "url" | "inbox";
  url: string;
  description: string | null;
  events: string[];
};

/** The source's endpoints, once `sourceId` is known to be one of the account's environments (else a 422). */
export async function readSettingsToCopy(
  db: Executor,
  accountId: number,
  sourceId: number,
): Promise<EndpointToCopy[]> {
  const [source] = await db
    .select({ id: merchants.id })
    .from(merchants)
    .where(
      and(
        eq(merchants.id, sourceId),
        sql`(${merchants.id} = ${accountId} or ${merchants.accountId} = ${accountId})`,
      ),
    );
  if (!source) throw validationError({ copy_from: ["The selected copy from is invalid."] });
  const endpoints = await db
    .select({
      kind: webhookEndpoints.kind,
      url: webhookEndpoints.url,
      description: webhookEndpoints.description,
      events: webhookEndpoints.eventTypes,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, sourceId))
    .orderBy(webhookEndpoints.id);
  return endpoints;
}

/**
 * The copied endpoints, in the new environment: each with a secret of its own (a secret is never shared between
 * environments), enabled, and an inbox a new inbox. Each is recorded, as an endpoint made by hand is.
 */
export async function writeCopiedEndpoints(
  db: Executor,
  environmentId: number,
  endpoints: EndpointToCopy[],
  by: SecurityActor,
): Promise<void> {
  for (const endpoint of endpoints) {
    const input = {
      kind: endpoint.kind,
      ...(endpoint.kind === "url" ? { url: endpoint.url } : {}),
      ...(endpoint.description ? { description: endpoint.description } : {}),
      events: endpoint.events,
    };
    await createWebhookEndpoint(db, environmentId, input, { allowDuplicateUrl: true }, by);
  }
}
