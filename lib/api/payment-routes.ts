import { createPayment } from "@/lib/payments/create-payment";
import { findPayment, listPayments } from "@/lib/payments/queries";
import { listPaymentsQuerySchema } from "@/lib/payments/schemas";
import { idParam } from "@/lib/platform/validation";
import { readProcessorConnection } from "@/lib/processors/connections";
import { paymentsAtProcessor } from "@/lib/processors/payments";
import { API_ERRORS, HttpError, refuseLiveWithoutProcessor } from "./api-errors";
import { defineRoute } from "./define-route";
import { idempotencyKeyParameter, readIdempotencyKey } from "./idempotency-key";
import {
  createdResponse,
  dataResponse,
  errorResponse,
  jsonBody,
  pagedResponse,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { refuseUnowned } from "./owned";
import { paginationEnvelope, queryValue } from "./pagination";
import { jsonResponse } from "./responses";

const LIST_FILTERS = [
  "status",
  "external_id",
  "customer_id",
  "refund_status",
  "currency",
  "created_from",
  "created_to",
];

/**
 * GET /api/payments: one page, newest first, in Laravel's resource-collection envelope; filtered by any of
 * LIST_FILTERS, with `meta.total` counting what matches.
 */
export const listPaymentsRoute = defineRoute({
  method: "GET",
  path: "/api/payments",
  scope: "read",
  summary: "List payments, newest first, filtered by any of its parameters",
  query: listPaymentsQuerySchema,
  responses: {
    200: pagedResponse(
      "A page of payments (a page past the end has empty data); meta.total counts what matches the filters, and the links carry them.",
      ref("PaymentListItem"),
    ),
    422: validationErrorResponse("Bad page, perPage or filter value; errors names the parameter."),
  },
  handler: async ({ read, merchantId, url, query }) => {
    const { page, perPage } = query;
    const filter = {
      status: query.status,
      externalId: query.external_id,
      customerId: query.customer_id,
      refundStatus: query.refund_status,
      currency: query.currency,
      from: query.created_from,
      to: query.created_to,
    };
    const { items, total } = await read((db) => listPayments(db, merchantId, page, perPage, filter));
    // The filters as sent: the pagination links carry them.
    const kept = Object.fromEntries(
      LIST_FILTERS.flatMap((name) => {
        const sent = queryValue(url, name);
        return typeof sent === "string" && sent ? [[name, sent]] : [];
      }),
    );
    return jsonResponse(200, {
      data: items,
      ...paginationEnvelope(url, page, perPage, total, items.length, kept),
    });
  },
});

/** POST /api/payments: the payment and its payment.pending event in one transaction. */
export const createPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/payments",
  scope: "write",
  summary: "Create a payment (status pending; emits payment.pending)",
  headers: [
    idempotencyKeyParameter(
      "Same key and body within 24 h replays the first response without a new payment; another body gives 409.",
    ),
    {
      name: "Prefer",
      in: "header",
      required: false,
      description:
        '`return=representation`: the answer carries the payment (`data`), so one request makes and reads it. Without it the body is `{"message"}` only.',
      schema: { type: "string", examples: ["return=representation"] },
    },
  ],
  body: jsonBody("CreatePayment"),
  responses: {
    201: createdResponse(
      "Created. With `Prefer: return=representation`, `data` is the payment as retrieved.",
      "/api/payments/{id}",
      "Payment created successfully",
      ref("RetrievedPayment"),
      { dataAlways: false },
    ),
    400: errorResponse("malformedJson", "The body is not JSON, not a JSON object, or nested too deeply."),
    403: errorResponse("unauthorized", "The token is read-only."),
    409: errorResponse(
      "idempotencyKeyReused",
      `${API_ERRORS.idempotencyKeyReused.when} Or a live key before a processor is connected: "${API_ERRORS.liveWithoutProcessor.message}"`,
    ),
    422: validationErrorResponse("Validation failed."),
  },
  handler: async ({ db, env, merchantId, token, request, body, extendDeadline }) => {
    refuseLiveWithoutProcessor(token);
    const idempotencyKey = readIdempotencyKey(request);
    // An environment with a processor makes each payment there first (DESIGN.md, "Processors"): the request then
    // waits up to the processor's bound, and the database's after it.
    const connection = token.processor === null ? null : await readProcessorConnection(db, merchantId);
    if (connection) extendDeadline(env.PROCESSOR_TIMEOUT + env.API_DEADLINE_MS);
    const { paymentId, replayed } = await createPayment(db, merchantId, body, {
      source: "api",
      defaultCurrency: token.defaultCurrency,
      autoSettleMs: env.PAYMENTS_AUTO_SETTLE_MS,
      idempotencyKey,
      atProcessor: connection ? paymentsAtProcessor(connection, merchantId) : undefined,
    });
    const headers = {
      Location: `/api/payments/${paymentId}`,
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    };
    // RFC 7240: the payment in the answer, one request instead of two; without it, the seed's body exactly.
    if (!prefersRepresentation(request.headers.get("prefer")))
      return jsonResponse(201, { message: "Payment created successfully" }, headers);
    const created = (await findPayment(db, merchantId, paymentId))!;
    return jsonResponse(
      201,
      { message: "Payment created successfully", data: created.payment },
      { ...headers, "Preference-Applied": "return=representation" },
    );
  },
});

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
export const showPaymentRoute = defineRoute({
  method: "GET",
  path: "/api/payments/{id}",
  scope: "read",
  summary: "Retrieve one payment, with what refunds have taken from it",
  params: { id: { schema: { type: "integer" } } },
  responses: {
    200: dataResponse("The payment.", ref("RetrievedPayment")),
    403: errorResponse("unauthorized", "The payment belongs to another merchant."),
    404: errorResponse("notFound", "No such payment."),
  },
  handler: async ({ db, merchantId, params }) => {
    const id = idParam.safeParse(params.id);
    if (!id.success) throw HttpError.of("notFound");
    const found = await findPayment(db, merchantId, id.data);
    if (!found) return refuseUnowned(db, "payments", id.data, merchantId);
    return jsonResponse(200, { data: found.payment });
  },
});
