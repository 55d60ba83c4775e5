import {
  createPaymentLinkSchema,
  paymentLinkSchema,
  updatePaymentLinkSchema,
} from "@/lib/checkout/payment-links";
import {
  bodyRefusals,
  common,
  createdResponse,
  dataResponse,
  errorResponse,
  idParameter,
  pagedResponse,
  pageParameters,
  schemaOf,
  validationErrorResponse,
} from "./openapi-parts";

// Payment links in the OpenAPI document (DESIGN.md, "Checkout: the payer's page, and payment links").

export const paymentLinkSchemas = {
  PaymentLink: schemaOf(paymentLinkSchema),
  CreatePaymentLink: schemaOf(createPaymentLinkSchema, "input"),
  UpdatePaymentLink: schemaOf(updatePaymentLinkSchema, "input"),
};

const jsonBody = (ref: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const notYours = {
  "403": errorResponse("unauthorized", "The link belongs to another merchant, or the token is read-only."),
  "404": errorResponse("notFound", "No such payment link."),
};

export const paymentLinkPaths = {
  "/api/payment-links": {
    get: {
      summary: "List payment links, newest first, with how many were paid",
      parameters: pageParameters,
      responses: {
        "200": pagedResponse("A page of payment links.", "#/components/schemas/PaymentLink"),
        "422": validationErrorResponse("Bad page or perPage."),
        ...common,
      },
    },
    post: {
      summary: "Create a payment link: each payer who pays at its url gets a payment of its amount",
      requestBody: jsonBody("CreatePaymentLink"),
      responses: {
        "201": createdResponse(
          "Created; the body carries the link and its url.",
          "/api/payment-links/{id}",
          "Payment link created successfully",
          "#/components/schemas/PaymentLink",
        ),
        "400": errorResponse("malformedJson"),
        "403": errorResponse("unauthorized", "The token is read-only."),
        ...bodyRefusals,
        "422": validationErrorResponse("Validation failed."),
        ...common,
      },
    },
  },
  "/api/payment-links/{id}": {
    get: {
      summary: "Retrieve one payment link",
      parameters: [idParameter("The payment link's id.")],
      responses: {
        "200": dataResponse("The payment link.", "#/components/schemas/PaymentLink"),
        ...notYours,
        ...common,
      },
    },
    patch: {
      summary: "Activate or deactivate a payment link (an inactive link says so and creates nothing)",
      parameters: [idParameter("The payment link's id.")],
      requestBody: jsonBody("UpdatePaymentLink"),
      responses: {
        "200": dataResponse("The payment link.", "#/components/schemas/PaymentLink"),
        "400": errorResponse("malformedJson"),
        ...notYours,
        ...bodyRefusals,
        "422": validationErrorResponse("`active` is missing or not a boolean."),
        ...common,
      },
    },
  },
};
