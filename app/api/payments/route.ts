import { apiRoute, methodNotAllowed } from "@/lib/api/handler";
import { paginationEnvelope } from "@/lib/api/pagination";
import { readJsonBody } from "@/lib/api/request-body";
import { jsonResponse } from "@/lib/api/responses";
import { readIdempotencyKey } from "@/lib/api/idempotency-key";
import { listPaymentsQuerySchema } from "@/lib/payment-schemas";
import { createPayment, listPayments } from "@/lib/payments";
import { parseInput } from "@/lib/validation";

export const GET = apiRoute(async ({ db, merchantId, request, searchParams }) => {
  // PHP keeps the last of repeated parameters; so do we.
  const { page, perPage } = parseInput(listPaymentsQuerySchema, {
    page: searchParams.getAll("page").at(-1),
    perPage: searchParams.getAll("perPage").at(-1),
  });
  const { items, total } = await listPayments(db, merchantId, page, perPage);
  return jsonResponse(200, { data: items, ...paginationEnvelope(request.url, page, perPage, total, items.length) });
});

export const POST = apiRoute(
  async ({ db, env, merchantId, request }) => {
    const body = await readJsonBody(request);
    const idempotencyKey = readIdempotencyKey(request);
    const { paymentId, replayed } = await createPayment(db, merchantId, body, {
      source: "api",
      autoSettleMs: env.PAYMENTS_AUTO_SETTLE_MS,
      idempotencyKey,
    });
    return jsonResponse(201, { message: "Payment created successfully" }, {
      Location: `/api/payments/${paymentId}`,
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    });
  },
  { requiresWrite: true },
);

export const { PUT, PATCH, DELETE } = methodNotAllowed("api/payments", ["GET", "HEAD", "POST"]);
