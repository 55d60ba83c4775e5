import { endpointResource, readEndpointBody, withApiFieldNames } from "@/lib/webhooks/endpoint-api";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoint-secrets";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
} from "@/lib/webhooks/endpoints";
import type { ApiContext } from "./api-route";
import { defineRoute } from "./define-route";
import { bodyRefusals, dataResponse, errorResponse, ref, validationErrorResponse } from "./openapi-parts";
import { ownedId } from "./owned";
import { jsonResponse } from "./responses";
import { apiActor } from "./security-actor";

/**
 * The webhook endpoints API (write scope: endpoints carry signing secrets). The same domain functions, URL
 * rules and SSRF policy as the dashboard; an endpoint or delivery of another merchant is a 403, none a 404.
 * The API allows a second endpoint on a URL the merchant already has (the dashboard asks first).
 */
const API_WRITE = { allowDuplicateUrl: true };

export const endpointIdOf = ({ db, params, merchantId }: ApiContext<{ id: string }, unknown>) =>
  ownedId(db, "webhook_endpoints", params.id, merchantId);

export const forbidden = (what: string) =>
  errorResponse("unauthorized", `The ${what} belongs to another merchant.`);
/** `{id}` of a path under /api/webhook-endpoints or /api/webhook-deliveries. */
export const idOf = (what: string) => ({
  id: { description: `The ${what}'s id.`, schema: { type: "integer" } },
});
export const endpointRefusals = {
  403: forbidden("endpoint"),
  404: errorResponse("notFound", "No such endpoint."),
};
const readOnly = { 403: errorResponse("unauthorized", "The token is read-only.") };
const writeBody = {
  required: true,
  content: { "application/json": { schema: { $ref: ref("WebhookEndpointInput") } } },
};
const bodyErrors = {
  400: errorResponse("malformedJson", "The body is not JSON, not a JSON object, or nested too deeply."),
  ...bodyRefusals,
  422: validationErrorResponse("A field is invalid; `errors` names it. Nothing was written."),
};

/** Domain validation errors, with the API's field names. */
async function apiFields<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw withApiFieldNames(error);
  });
}

export const listEndpointsRoute = defineRoute({
  method: "GET",
  path: "/api/webhook-endpoints",
  scope: "write",
  summary: "List webhook endpoints (write scope)",
  responses: {
    200: {
      description: "Every endpoint, newest first; secrets are not included.",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { data: { type: "array", items: { $ref: ref("WebhookEndpoint") } } },
          },
        },
      },
    },
    ...readOnly,
  },
  handler: async ({ db, merchantId }) => {
    const endpoints = await listWebhookEndpoints(db, merchantId);
    return jsonResponse(200, { data: endpoints.map((endpoint) => endpointResource(endpoint)) });
  },
});

export const createEndpointRoute = defineRoute({
  method: "POST",
  path: "/api/webhook-endpoints",
  scope: "write",
  summary: "Add a webhook endpoint; its signing secret is in this answer only",
  body: writeBody,
  responses: {
    201: dataResponse("Created, with `secret`.", ref("WebhookEndpoint"), {
      Location: { description: "/api/webhook-endpoints/{id}", schema: { type: "string" } },
    }),
    ...readOnly,
    ...bodyErrors,
  },
  handler: async (context) => {
    const { db, merchantId, body } = context;
    const { input } = readEndpointBody(body);
    const created = await apiFields(
      createWebhookEndpoint(db, merchantId, input, API_WRITE, await apiActor(context)),
    );
    return jsonResponse(
      201,
      { data: endpointResource(created, created.secret) },
      { Location: `/api/webhook-endpoints/${created.id}` },
    );
  },
});

export const showEndpointRoute = defineRoute({
  method: "GET",
  path: "/api/webhook-endpoints/{id}",
  scope: "write",
  summary: "Retrieve an endpoint",
  params: idOf("endpoint"),
  responses: { 200: dataResponse("The endpoint.", ref("WebhookEndpoint")), ...endpointRefusals },
  handler: async (context) => {
    const endpoint = await getWebhookEndpoint(context.db, context.merchantId, await endpointIdOf(context));
    return jsonResponse(200, { data: endpointResource(endpoint) });
  },
});

export const updateEndpointRoute = defineRoute({
  method: "PATCH",
  path: "/api/webhook-endpoints/{id}",
  scope: "write",
  summary: "Change url, description, event_types, enabled, or an inbox's inbox_response",
  params: idOf("endpoint"),
  body: writeBody,
  responses: {
    200: dataResponse("The endpoint as changed.", ref("WebhookEndpoint")),
    ...bodyErrors,
    ...endpointRefusals,
  },
  handler: async (context) => {
    const { db, merchantId, body } = context;
    const id = await endpointIdOf(context);
    const { input, enabled } = readEndpointBody(body);
    const endpoint = await db.transaction(async (tx) => {
      await apiFields(updateWebhookEndpoint(tx, merchantId, id, input, API_WRITE));
      if (enabled !== undefined) await setWebhookEndpointEnabled(tx, merchantId, id, enabled);
      return getWebhookEndpoint(tx, merchantId, id);
    });
    return jsonResponse(200, { data: endpointResource(endpoint) });
  },
});

export const deleteEndpointRoute = defineRoute({
  method: "DELETE",
  path: "/api/webhook-endpoints/{id}",
  scope: "write",
  summary: "Delete an endpoint and its delivery log",
  params: idOf("endpoint"),
  responses: { 204: { description: "Deleted." }, ...endpointRefusals },
  handler: async (context) => {
    const id = await endpointIdOf(context);
    await deleteWebhookEndpoint(context.db, context.merchantId, id, await apiActor(context));
    return { status: 204, headers: {}, body: null };
  },
});

export const rotateEndpointSecretRoute = defineRoute({
  method: "POST",
  path: "/api/webhook-endpoints/{id}/rotate-secret",
  scope: "write",
  summary: "Rotate the signing secret (the old one keeps signing beside it for 24 hours)",
  params: idOf("endpoint"),
  responses: {
    200: dataResponse("The endpoint, with its new `secret`.", ref("WebhookEndpoint")),
    ...endpointRefusals,
  },
  handler: async (context) => {
    const id = await endpointIdOf(context);
    const secret = await rotateWebhookSecret(context.db, context.merchantId, id, await apiActor(context));
    const endpoint = await getWebhookEndpoint(context.db, context.merchantId, id);
    return jsonResponse(200, { data: endpointResource(endpoint, secret) });
  },
});
