import type { Executor } from "@/db/client";
import { EVENT_ID, findEvent, listEvents, listEventsQuerySchema } from "@/lib/events/queries";
import { resendEvent } from "@/lib/webhooks/delivery-log";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import {
  dataResponse,
  errorResponse,
  message,
  pagedResponse,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { refuseUnowned } from "./owned";
import { paginationEnvelope } from "./pagination";
import { jsonResponse } from "./responses";

const eventId = { id: { schema: { type: "string" } } };
const forbidden = errorResponse("unauthorized", "The event belongs to another merchant.");

/** Another merchant's event is a 403, and a malformed id no one's (404) without a query. */
function refuseUnknownEvent(db: Executor, eventId: string, merchantId: number): Promise<never> {
  if (!EVENT_ID.test(eventId)) throw HttpError.of("notFound");
  return refuseUnowned(db, "events", eventId, merchantId);
}

/** GET /api/events: newest first, Laravel's envelope and 422s, filtered by `type` and `payment_id`. */
export const listEventsRoute = defineRoute({
  method: "GET",
  path: "/api/events",
  scope: "read",
  summary: "List events, newest first (read scope is enough)",
  description:
    "Kept 30 days. Read them to catch up after a missed webhook; `id` is the deliveries' webhook-id.",
  query: listEventsQuerySchema,
  responses: {
    200: pagedResponse("A page of events.", ref("Event")),
    422: validationErrorResponse("Bad page, perPage, type or payment_id."),
  },
  handler: async ({ read, merchantId, url, query }) => {
    const { items, total } = await read((db) => listEvents(db, merchantId, query));
    return jsonResponse(200, {
      data: items,
      ...paginationEnvelope(url, query.page, query.perPage, total, items.length, {
        type: query.type,
        payment_id: query.payment_id,
      }),
    });
  },
});

/** GET /api/events/{id}: the event and its deliveries; 404 when none has the id, 403 for another merchant's. */
export const showEventRoute = defineRoute({
  method: "GET",
  path: "/api/events/{id}",
  scope: "read",
  summary: "Retrieve an event and its deliveries",
  params: eventId,
  responses: {
    200: dataResponse("The event.", ref("EventWithDeliveries")),
    403: forbidden,
    404: errorResponse("notFound", "No such event."),
  },
  handler: async ({ db, merchantId, params }) => {
    const found = await findEvent(db, merchantId, params.id);
    if (!found) return refuseUnknownEvent(db, params.id, merchantId);
    return jsonResponse(200, { data: found });
  },
});

/** POST /api/events/{id}/resend: every finished delivery of the event queued again (202); 409 when none. */
export const resendEventRoute = defineRoute({
  method: "POST",
  path: "/api/events/{id}/resend",
  scope: "write",
  summary: "Send an event again to every endpoint it went to (write scope)",
  description:
    "Each of the event's finished deliveries (succeeded or failed) is queued again now, with a fresh retry schedule; its earlier attempts stay in the log. `payments events resend` calls it.",
  params: eventId,
  responses: {
    202: {
      description: "Queued again.",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              message: { type: "string", examples: ["Event queued again for 2 endpoints."] },
              data: {
                type: "object",
                properties: { id: { type: "string" }, deliveries_queued: { type: "integer" } },
                required: ["id", "deliveries_queued"],
              },
            },
            required: ["message", "data"],
          },
        },
      },
    },
    403: forbidden,
    404: errorResponse("notFound", "No such event."),
    409: {
      description: "Nothing to resend: its deliveries are still queued, or it had none.",
      content: { "application/json": { schema: message("Event evt_… has nothing to resend: …") } },
    },
  },
  handler: async ({ db, merchantId, params }) => {
    if (!(await findEvent(db, merchantId, params.id))) return refuseUnknownEvent(db, params.id, merchantId);
    const queued = await resendEvent(db, merchantId, params.id);
    return jsonResponse(202, {
      message: `Event queued again for ${queued} ${queued === 1 ? "endpoint" : "endpoints"}.`,
      data: { id: params.id, deliveries_queued: queued },
    });
  },
});
