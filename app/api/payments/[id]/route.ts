import { apiRoute, methodNotAllowed } from "@/lib/api/handler";
import { HttpError, jsonResponse, UNAUTHORIZED } from "@/lib/api/responses";
import { findPayment } from "@/lib/payments";

export const GET = apiRoute<{ id: string }>(async ({ db, merchantId, params }) => {
  const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : undefined;
  const found = id === undefined ? undefined : await findPayment(db, id);
  if (!found) throw new HttpError(404, "Not Found");
  if (found.merchantId !== merchantId) throw new HttpError(403, UNAUTHORIZED);
  return jsonResponse(200, { data: found.payment });
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("api/payments/{id}", ["GET", "HEAD"]);
