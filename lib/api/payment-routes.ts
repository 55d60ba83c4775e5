import { createPayment } from "@/lib/payments/create-payment";
import { findPayment, listPayments } from "@/lib/payments/queries";
import { listPaymentsQuerySchema } from "@/lib/payments/schemas";
import { idParam, parseInput } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { apiRoute } from "./api-route";
import { readIdempotencyKey } from "./idempotency-key";
import { paginationEnvelope, queryValue } from "./pagination";
import { jsonResponse } from "./responses";

/** The list's filters as sent: the pagination links carry them. */
const LIST_FILTERS = ["status", "external_id", "customer_id", "refund_status", "created_from", "created_to"];

/**
 * GET /api/payments: one page, newest first, in Laravel's resource-collection envelope; filtered by any of
 * LIST_FILTERS, with `meta.total` counting what matches.
 */
export const listPaymentsRoute = apiRoute(async ({ read, merchantId, url }) => {
  const sent = Object.fromEntries(
    ["page", "perPage", ...LIST_FILTERS].map((name) => [name, queryValue(url, name)]),
  );
  const query = parseInput(listPaymentsQuerySchema, sent);
  const { page, perPage } = query;
  const filter = {
    status: query.status,
    externalId: query.external_id,
    customerId: query.customer_id,
    refundStatus: query.refund_status,
    from: query.created_from,
    to: query.created_to,
  };
  const { items, total } = await read((db) => listPayments(db, merchantId, page, perPage, filter));
  const kept = Object.fromEntries(
    LIST_FILTERS.flatMap((name) =>
      typeof sent[name] === "string" && sent[name] ? [[name, sent[name]]] : [],
    ),
  );
  return jsonResponse(200, {
    data: items,
    ...paginationEnvelope(url, page, perPage, total, items.length, kept),
  });
});

/** POST /api/payments: the payment and its payment.pending event in one transaction. */
export const createPaymentRoute = apiRoute(
  async ({ db, env, merchantId, request, body }) => {
    const idempotencyKey = readIdempotencyKey(request);
    const { paymentId, replayed } = await createPayment(db, merchantId, body, {
      source: "api",
      autoSettleMs: env.PAYMENTS_AUTO_SETTLE_MS,
      idempotencyKey,
    });
    const headers = {
      Location: `/api/payments/${paymentId}`,
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    };
    // RFC 7240: the payment in the answer, one request instead of two; without it, the seed's body exactly.
    if (!prefersRepresentation(request.headers.get("prefer")))
      return jsonResponse(201, { message: "Payment created successfully" }, headers);
    const created = (await findPayment(db, paymentId))!;
    return jsonResponse(
      201,
      { message: "Payment created successfully", data: created.payment },
      { ...headers, "Preference-Applied": "return=representation" },
    );
  },
  { requiresWrite: true },
);

/**
 * Whether a Prefer header asks for `return=representation`: among other preferences (comma-separated), in any
 * case and spacing, and with any parameters after a `;` (RFC 7240 allows them; none changes this one).
 */
function prefersRepresentation(prefer: string | null): boolean {
  return (prefer ?? "")
    .split(",")
    .some((each) => /^\s*return\s*=\s*"?representation"?\s*$/i.test(each.split(";")[0]!));
}

/** GET /api/payments/{id}: 404 when no payment has the id, 403 when another merchant owns it. */
export const showPaymentRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const id = idParam.safeParse(params.id);
  const found = id.success ? await findPayment(db, id.data) : undefined;
  if (!found) throw HttpError.of("notFound");
  if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
  return jsonResponse(200, { data: found.payment });
});
