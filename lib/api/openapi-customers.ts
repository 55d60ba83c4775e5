import { REFUND_STATES, REFUND_STATUSES } from "@/db/enums";
import { PAYMENT_STATUSES } from "@/db/enums";
import { customerSchema } from "@/lib/customers/customers";
import {
  common,
  dataResponse,
  errorResponse,
  pagedResponse,
  pageParameters,
  schemaOf,
  validationErrorResponse,
} from "./openapi-parts";

// The API beyond the seed in the OpenAPI document: the payments list's filters, every refund, customers.

export const customerSchemas = { Customer: schemaOf(customerSchema) };

const queryFilter = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const instant = { type: "string", examples: ["2026-11-01", "2026-11-01T09:30:00Z"] };

/** `GET /api/payments`' filters (DESIGN.md, "The API beyond the seed"). */
export const paymentFilterParameters = [
  queryFilter("status", "Only payments in this status.", { type: "string", enum: [...PAYMENT_STATUSES] }),
  queryFilter("external_id", "Only the payment(s) with this external id, exactly.", {
    type: "string",
    maxLength: 255,
  }),
  queryFilter("customer_id", "Only this customer's payments.", { type: "string", maxLength: 255 }),
  queryFilter(
    "refund_status",
    "What succeeded refunds took: none, part (partial) or all (full) of the amount.",
    { type: "string", enum: [...REFUND_STATES] },
  ),
  queryFilter(
    "created_from",
    "Created at or after: an ISO 8601 date (its start, UTC) or date-time (UTC unless it names an offset).",
    instant,
  ),
  queryFilter(
    "created_to",
    "Created at or before: an ISO 8601 date (through its end, UTC) or date-time.",
    instant,
  ),
];

export const customerPaths = {
  "/api/refunds": {
    get: {
      summary: "List every refund of the merchant, newest first",
      parameters: [
        ...pageParameters,
        queryFilter("status", "Only refunds in this status.", { type: "string", enum: [...REFUND_STATUSES] }),
        queryFilter("payment_id", "Only this payment's refunds.", { type: "integer" }),
      ],
      responses: {
        "200": pagedResponse("A page of refunds.", "#/components/schemas/Refund"),
        "422": validationErrorResponse("Bad page, perPage, status or payment_id."),
        ...common,
      },
    },
  },
  "/api/customers": {
    get: {
      summary: "List customers (one per customer_id sent on payments), the latest payment first",
      parameters: pageParameters,
      responses: {
        "200": pagedResponse("A page of customers.", "#/components/schemas/Customer"),
        "422": validationErrorResponse("Bad page or perPage."),
        ...common,
      },
    },
  },
  "/api/customers/{id}": {
    get: {
      summary: "Retrieve a customer: its payments count, completed volume and refunds",
      parameters: [
        {
          name: "id",
          in: "path",
          required: true,
          description: "The customer_id.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": dataResponse("The customer.", "#/components/schemas/Customer"),
        "404": errorResponse("notFound", "The merchant never sent this customer_id."),
        ...common,
      },
    },
  },
};
