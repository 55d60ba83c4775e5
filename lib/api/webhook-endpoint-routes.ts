import type { Executor } from "@/db/client";
import { idParam, parseInput } from "@/lib/platform/validation";
import { resendDelivery } from "@/lib/webhooks/delivery-log";
import {
  endpointDeliveriesQuerySchema,
  endpointResource,
  listDeliveriesPage,
  ownerOf,
  readEndpointBody,
  withApiFieldNames,
} from "@/lib/webhooks/endpoint-api";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
} from "@/lib/webhooks/endpoints";
import { inboxQuerySchema, listInboxCaptures } from "@/lib/webhooks/inbox";
import { verifyDelivery } from "@/lib/webhooks/signature-debugger";
import { HttpError } from "./api-errors";
import { apiRoute, type ApiContext } from "./api-route";
import { paginationEnvelope, queryValue } from "./pagination";
import { asApiAnswer, jsonResponse } from "./responses";

/**
 * The webhook endpoints API (write scope: endpoints carry signing secrets). The same domain functions, URL
 * rules and SSRF policy as the dashboard; an endpoint or delivery of another merchant is a 403, none a 404.
 * The API allows a second endpoint on a URL the merchant already has (the dashboard asks first).
 */
const writeScope = { requiresWrite: true };
const API_WRITE = { allowDuplicateUrl: true };
/** The id in the path, checked against its owner: 404 for none (or a malformed id), 403 for another's. */
async function ownedId(
  db: Executor,
  table: "webhook_endpoints" | "webhook_deliveries",
  raw: string,
  merchantId: number,
): Promise<number> {
  const id = idParam.safeParse(raw);
  const owner = id.success ? await ownerOf(db, table, id.data) : undefined;
  if (owner === undefined) throw HttpError.of("notFound");
  if (owner !== merchantId) throw HttpError.of("unauthorized");
  return id.data!;
}

type IdContext = ApiContext<{ id: string }>;
const endpointIdOf = ({ db, params, merchantId }: IdContext) =>
  ownedId(db, "webhook_endpoints", params.id, merchantId);

/** Domain validation errors, with the API's field names. */
async function apiFields<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw withApiFieldNames(error);
  });
}

export const listEndpointsRoute = apiRoute(async ({ db, merchantId }) => {
  const endpoints = await listWebhookEndpoints(db, merchantId);
  return jsonResponse(200, { data: endpoints.map((endpoint) => endpointResource(endpoint)) });
}, writeScope);

export const createEndpointRoute = apiRoute(async ({ db, merchantId, body }) => {
  const { input } = readEndpointBody(body);
  const created = await apiFields(createWebhookEndpoint(db, merchantId, input, API_WRITE));
  return jsonResponse(
    201,
    { data: endpointResource(created, created.secret) },
    {
      Location: `/api/webhook-endpoints/${created.id}`,
    },
  );
}, writeScope);

export const showEndpointRoute = apiRoute<{ id: string }>(async (context) => {
  const endpoint = await getWebhookEndpoint(context.db, context.merchantId, await endpointIdOf(context));
  return jsonResponse(200, { data: endpointResource(endpoint) });
}, writeScope);

export const updateEndpointRoute = apiRoute<{ id: string }>(async (context) => {
  const { db, merchantId, body } = context;
  const id = await endpointIdOf(context);
  const { input, enabled } = readEndpointBody(body);
  const endpoint = await db.transaction(async (tx) => {
    await apiFields(updateWebhookEndpoint(tx, merchantId, id, input, API_WRITE));
    if (enabled !== undefined) await setWebhookEndpointEnabled(tx, merchantId, id, enabled);
    return getWebhookEndpoint(tx, merchantId, id);
  });
  return jsonResponse(200, { data: endpointResource(endpoint) });
}, writeScope);

export const deleteEndpointRoute = apiRoute<{ id: string }>(async (context) => {
  await deleteWebhookEndpoint(context.db, context.merchantId, await endpointIdOf(context));
  return { status: 204, headers: {}, body: null };
}, writeScope);

export const rotateEndpointSecretRoute = apiRoute<{ id: string }>(async (context) => {
  const id = await endpointIdOf(context);
  const secret = await rotateWebhookSecret(context.db, context.merchantId, id);
  const endpoint = await getWebhookEndpoint(context.db, context.merchantId, id);
  return jsonResponse(200, { data: endpointResource(endpoint, secret) });
}, writeScope);

export const listEndpointDeliveriesRoute = apiRoute<{ id: string }>(async (context) => {
  const { read, merchantId, url } = context;
  const id = await endpointIdOf(context);
  const query = parseInput(endpointDeliveriesQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
    status: queryValue(url, "status"),
  });
  const { items, total } = await read((db) => listDeliveriesPage(db, merchantId, id, query));
  return jsonResponse(200, {
    data: items,
    ...paginationEnvelope(url, query.page, query.perPage, total, items.length, { status: query.status }),
  });
}, writeScope);

/** GET /api/webhook-endpoints/{id}/inbox: an inbox's captures, newest first. */
export const listInboxCapturesRoute = apiRoute<{ id: string }>(async (context) => {
  const { read, merchantId, url } = context;
  const id = await endpointIdOf(context);
  const query = parseInput(inboxQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
  });
  const { items, total } = await read((db) => listInboxCaptures(db, merchantId, id, query));
  return jsonResponse(200, {
    data: items,
    ...paginationEnvelope(url, query.page, query.perPage, total, items.length, {}),
  });
}, writeScope);

export const resendDeliveryRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const id = await ownedId(db, "webhook_deliveries", params.id, merchantId);
  await resendDelivery(db, merchantId, id);
  return jsonResponse(202, { message: "Delivery queued again." });
}, writeScope);

/** POST /api/webhooks/verify `{endpoint_id, headers, body}`: the signature debugger (read scope). */
export const verifyWebhookRoute = apiRoute(async ({ db, merchantId, body }) => {
  return jsonResponse(200, await asApiAnswer(verifyDelivery(db, merchantId, body)));
});
