import { getCustomer, listCustomers } from "@/lib/customers/customers";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import { dataResponse, errorResponse, ref } from "./openapi-parts";
import { pagedListRoute } from "./paged-list-route";
import { jsonResponse } from "./responses";

/** GET /api/customers: a customer per customer_id seen, the latest payment first, paged. */
export const listCustomersRoute = pagedListRoute({
  path: "/api/customers",
  summary: "List customers (one per customer_id sent on payments), the latest payment first",
  items: "customers",
  schema: "Customer",
  list: listCustomers,
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
