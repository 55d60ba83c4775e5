import "server-only";
import { recordLoader } from "@/app/_lib/route-params";
import { getDb } from "@/db/client";
import { DomainError } from "@/lib/platform/errors";
import { getWebhookEndpoint } from "@/lib/webhooks/endpoints";

export const loadEndpoint = recordLoader((merchantId, id) =>
  getWebhookEndpoint(getDb(), merchantId, id).catch((error: unknown) => {
    if (error instanceof DomainError && error.kind === "not_found") return undefined;
    throw error;
  }),
);
