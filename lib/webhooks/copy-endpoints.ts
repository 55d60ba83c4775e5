import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { SecurityActor } from "@/lib/security/history";
import { createWebhookEndpoint } from "./endpoints";

// Settings → Sandboxes' "Copy settings from" (DESIGN.md, "Live and sandboxes"): a new sandbox takes another
// environment's webhook endpoints (createSandbox takes its settings). Read before the new environment is written,
// then written into it: on Citus a read of another merchant's shard after a write to the merchants reference table
// is best avoided in one transaction.

export type EndpointToCopy = {
  kind: "url" | "inbox";
  url: string;
  description: string | null;
  events: string[];
};

/** An environment's endpoints, to copy (the caller has checked the environment is the account's). */
export async function readEndpointsToCopy(db: Executor, sourceId: number): Promise<EndpointToCopy[]> {
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
