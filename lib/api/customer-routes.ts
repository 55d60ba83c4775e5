import { getCustomer, listCustomers } from "@/lib/customers/customers";
import { pageQuerySchema } from "@/lib/platform/list-query";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import {
  dataResponse,
  errorResponse,
  pagedResponse,
  pageParameters,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { paginationEnvelope } from "./pagination";
import { jsonResponse } from "./responses";

/** GET /api/customers: a customer per customer_id seen, the latest payment first, paged. */
export const listCustomersRoute = defineRoute({
  method: "GET",
  path: "/api/customers",
  scope: "read",
  summary: "List customers (one per customer_id sent on payments), the latest payment first",
  query: pageQuerySchema,
  parameters: pageParameters,
  responses: {
    200: pagedResponse("A page of customers.", ref("Customer")),
    422: validationErrorResponse("Bad page or perPage."),
  },
  handler: async ({ read, merchantId, url, query: { page, perPage } }) => {
    const { items, total } = await read((db) => listCustomers(db, merchantId, page, perPage));
    return jsonResponse(200, { data: items, ...paginationEnvelope(url, page, perPage, total, items.length) });
  },
});

/** GET /api/customers/{id}: 404 for an id the merchant never used (another merchant's is none of its). */
export const showCustomerRoute = defineRoute({
  method: "GET",
  path: "/api/customers/{id}",
  scope: "read",
  summary: "Retrieve a customer: its payments count, completed volume and refunds",
  params: { id: { description: "The customer_id.", schema: { type: "string" } } },
  responses: {
    200: dataResponse("The customer.", ref("Customer")),
    404: errorResponse("notFound", "The merchant never sent this customer_id."),
  },
  handler: async ({ read, merchantId, params }) => {
    const customer = await read((db) => getCustomer(db, merchantId, params.id));
    if (!customer) throw HttpError.of("notFound");
    return jsonResponse(200, { data: customer });
  },
});
