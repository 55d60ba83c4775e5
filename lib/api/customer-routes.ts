import { getCustomer, listCustomers } from "@/lib/customers/customers";
import { pageQuerySchema } from "@/lib/payments/schemas";
import { parseInput } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { apiRoute } from "./api-route";
import { paginationEnvelope, queryValue } from "./pagination";
import { jsonResponse } from "./responses";

/** GET /api/customers: a customer per customer_id seen, the latest payment first, paged. */
export const listCustomersRoute = apiRoute(async ({ read, merchantId, url }) => {
  const { page, perPage } = parseInput(pageQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
  });
  const { items, total } = await read((db) => listCustomers(db, merchantId, page, perPage));
  return jsonResponse(200, { data: items, ...paginationEnvelope(url, page, perPage, total, items.length) });
});

/** GET /api/customers/{id}: 404 for an id the merchant never used (another merchant's is none of its). */
export const showCustomerRoute = apiRoute<{ id: string }>(async ({ read, merchantId, params }) => {
  const customer = await read((db) => getCustomer(db, merchantId, params.id));
  if (!customer) throw HttpError.of("notFound");
  return jsonResponse(200, { data: customer });
});
