import { findEvent, listEvents, listEventsQuerySchema } from "@/lib/events/queries";
import { parseInput } from "@/lib/platform/validation";
import { resendEvent } from "@/lib/webhooks/delivery-log";
import { HttpError } from "./api-errors";
import { apiRoute } from "./api-route";
import { paginationEnvelope, queryValue } from "./pagination";
import { jsonResponse } from "./responses";

/** GET /api/events: newest first, Laravel's envelope and 422s, filtered by `type` and `payment_id`. */
export const listEventsRoute = apiRoute(async ({ read, merchantId, url }) => {
  const query = parseInput(listEventsQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
    type: queryValue(url, "type"),
    payment_id: queryValue(url, "payment_id"),
  });
  const { items, total } = await read((db) => listEvents(db, merchantId, query));
  return jsonResponse(200, {
    data: items,
    ...paginationEnvelope(url, query.page, query.perPage, total, items.length, {
      type: query.type,
      payment_id: query.payment_id,
    }),
  });
});

/** GET /api/events/{id}: the event and its deliveries; 404 when none has the id, 403 for another merchant's. */
export const showEventRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const found = await findEvent(db, params.id);
  if (!found) throw HttpError.of("notFound");
  if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
  return jsonResponse(200, { data: found.event });
});

/** POST /api/events/{id}/resend: every finished delivery of the event queued again (202); 409 when none. */
export const resendEventRoute = apiRoute<{ id: string }>(
  async ({ db, merchantId, params }) => {
    const found = await findEvent(db, params.id);
    if (!found) throw HttpError.of("notFound");
    if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
    const queued = await resendEvent(db, merchantId, params.id);
    return jsonResponse(202, {
      message: `Event queued again for ${queued} ${queued === 1 ? "endpoint" : "endpoints"}.`,
      data: { id: params.id, deliveries_queued: queued },
    });
  },
  { requiresWrite: true },
);
