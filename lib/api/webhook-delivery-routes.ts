import { resendDelivery } from "@/lib/webhooks/delivery-log";
import { endpointDeliveriesQuerySchema, listDeliveriesPage } from "@/lib/webhooks/endpoint-api";
import { inboxQuerySchema, listInboxCaptures } from "@/lib/webhooks/inbox";
import { verifyDelivery } from "@/lib/webhooks/signature-debugger";
import { defineRoute } from "./define-route";
import { errorResponse, message, pagedResponse, ref, validationErrorResponse } from "./openapi-parts";
import { ownedId } from "./owned";
import { paginationEnvelope } from "./pagination";
import { asApiAnswer, jsonResponse } from "./responses";
import { endpointIdOf, endpointRefusals, forbidden, idOf } from "./webhook-endpoint-routes";

// What went to an endpoint: its deliveries, an inbox's captures, a resend, and the signature debugger.

export const listEndpointDeliveriesRoute = defineRoute({
  method: "GET",
  path: "/api/webhook-endpoints/{id}/deliveries",
  scope: "write",
  summary: "List an endpoint's deliveries, newest first",
  params: idOf("endpoint"),
  query: endpointDeliveriesQuerySchema,
  responses: {
    200: pagedResponse("A page of deliveries.", ref("Delivery")),
    422: validationErrorResponse("Bad page, perPage or status."),
    ...endpointRefusals,
  },
  handler: async (context) => {
    const { read, merchantId, url, query } = context;
    const id = await endpointIdOf(context);
    const { items, total } = await read((db) => listDeliveriesPage(db, merchantId, id, query));
    return jsonResponse(200, {
      data: items,
      ...paginationEnvelope(url, query.page, query.perPage, total, items.length, { status: query.status }),
    });
  },
});

export const resendDeliveryRoute = defineRoute({
  method: "POST",
  path: "/api/webhook-deliveries/{id}/resend",
  scope: "write",
  summary: "Queue a delivered or failed delivery again",
  params: idOf("delivery"),
  responses: {
    202: {
      description: "Queued.",
      content: { "application/json": { schema: message("Delivery queued again.") } },
    },
    403: forbidden("delivery"),
    404: errorResponse("notFound", "No such delivery."),
    409: {
      description: "Already queued.",
      content: {
        "application/json": { schema: message("That delivery is already queued, or does not exist.") },
      },
    },
  },
  handler: async ({ db, merchantId, params }) => {
    const id = await ownedId(db, "webhook_deliveries", params.id, merchantId);
    await resendDelivery(db, merchantId, id);
    return jsonResponse(202, { message: "Delivery queued again." });
  },
});

/** GET /api/webhook-endpoints/{id}/inbox: an inbox's captures, newest first. */
export const listInboxCapturesRoute = defineRoute({
  method: "GET",
  path: "/api/webhook-endpoints/{id}/inbox",
  scope: "write",
  summary: "List what an inbox endpoint captured, newest first (kept 7 days)",
  params: idOf("inbox endpoint"),
  query: inboxQuerySchema,
  responses: {
    200: pagedResponse("A page of captures.", ref("InboxCapture")),
    403: forbidden("endpoint"),
    404: errorResponse("notFound", "No such endpoint, or it is not an inbox."),
    422: validationErrorResponse("Bad page or perPage."),
  },
  handler: async (context) => {
    const { read, merchantId, url, query } = context;
    const id = await endpointIdOf(context);
    const { items, total } = await read((db) => listInboxCaptures(db, merchantId, id, query));
    return jsonResponse(200, {
      data: items,
      ...paginationEnvelope(url, query.page, query.perPage, total, items.length, {}),
    });
  },
});

/** POST /api/webhooks/verify `{endpoint_id, headers, body}`: the signature debugger (read scope). */
export const verifyWebhookRoute = defineRoute({
  method: "POST",
  path: "/api/webhooks/verify",
  scope: "read",
  summary: "The signature debugger: does this delivery verify, and if not, why (read scope)",
  description:
    "Give the endpoint and the delivery as the receiver got it (`headers` an object of header names to values, `body` the exact string). The answer never includes a secret.",
  body: {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: {
            endpoint_id: { type: "integer" },
            headers: { type: "object", additionalProperties: { type: "string" } },
            body: { type: "string" },
          },
          required: ["endpoint_id", "headers", "body"],
        },
      },
    },
  },
  responses: {
    200: {
      description: "The verdict.",
      content: { "application/json": { schema: { $ref: ref("Verification") } } },
    },
    403: forbidden("endpoint"),
    404: errorResponse("notFound", "No such endpoint."),
    422: validationErrorResponse("A missing or malformed endpoint_id, headers or body."),
  },
  handler: async ({ db, merchantId, body }) =>
    jsonResponse(200, await asApiAnswer(verifyDelivery(db, merchantId, body))),
});
