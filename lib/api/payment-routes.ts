import { createPayment } from "@/lib/payments/create-payment";
import { findPayment, listPayments } from "@/lib/payments/queries";
import { listPaymentsQuerySchema } from "@/lib/payments/schemas";
import { idParam, parseInput } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { apiRoute } from "./api-route";
import { readIdempotencyKey } from "./idempotency-key";
import { paginationEnvelope, queryValue } from "./pagination";
import { jsonResponse } from "./responses";

/** GET /api/payments: one page, newest first, in Laravel's resource-collection envelope. */
export const listPaymentsRoute = apiRoute(async ({ read, merchantId, url }) => {
  const { page, perPage } = parseInput(listPaymentsQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
  });
  const { items, total } = await read((db) => listPayments(db, merchantId, page, perPage));
  return jsonResponse(200, { data: items, ...paginationEnvelope(url, page, perPage, total, items.length) });
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
    return jsonResponse(
      201,
      { message: "Payment created successfully" },
      {
        Location: `/api/payments/${paymentId}`,
        ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
      },
    );
  },
  { requiresWrite: true },
);

/** GET /api/payments/{id}: 404 when no payment has the id, 403 when another merchant owns it. */
export const showPaymentRoute = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const id = idParam.safeParse(params.id);
  const found = id.success ? await findPayment(db, id.data) : undefined;
  if (!found) throw HttpError.of("notFound");
  if (found.merchantId !== merchantId) throw HttpError.of("unauthorized");
  return jsonResponse(200, { data: found.payment });
});
