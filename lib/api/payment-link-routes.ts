import {
  createPaymentLink,
  createPaymentLinkSchema,
  getPaymentLink,
  listPaymentLinks,
  setPaymentLinkActive,
} from "@/lib/checkout/payment-links";
import { sameAmount } from "@/lib/payments/idempotency";
import { parseInput } from "@/lib/platform/validation";
import { API_ERRORS, HttpError, refuseLiveWithoutProcessor } from "./api-errors";
import type { ApiContext } from "./api-route";
import { defineRoute } from "./define-route";
import { actionKeyParameter, actOnce } from "./idempotency-key";
import {
  createdResponse,
  dataResponse,
  errorResponse,
  jsonBody,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { ownedId } from "./owned";
import { pagedListRoute } from "./paged-list-route";
import { asApiAnswer, jsonResponse } from "./responses";

/** Payment links (DESIGN.md, "Checkout"): a fixed amount at `{APP_URL}/l/{slug}`, a payment per payer. */

/** The link in the path, checked against its owner: 404 for none (or a malformed id), 403 for another's. */
const ownedLinkId = ({ db, params, merchantId }: ApiContext<{ id: string }, unknown>): Promise<number> =>
  ownedId(db, "payment_links", params.id, merchantId);

const linkId = { id: { description: "The payment link's id.", schema: { type: "integer" } } };
const notYours = {
  403: errorResponse("unauthorized", "The link belongs to another merchant, or the token is read-only."),
  404: errorResponse("notFound", "No such payment link."),
};

/** GET /api/payment-links: newest first, each with how many of its payments were paid. */
export const listPaymentLinksRoute = pagedListRoute({
  path: "/api/payment-links",
  summary: "List payment links, newest first, with how many were paid",
  items: "payment links",
  schema: "PaymentLink",
  list: listPaymentLinks,
});

/** POST /api/payment-links `{name, amount, description?}`: 201 with the link and its url. */
export const createPaymentLinkRoute = defineRoute({
  method: "POST",
  path: "/api/payment-links",
  scope: "write",
  summary: "Create a payment link: each payer who pays at its url gets a payment of its amount",
  body: jsonBody("CreatePaymentLink"),
  headers: [actionKeyParameter],
  responses: {
    201: createdResponse(
      "Created; the body carries the link and its url.",
      "/api/payment-links/{id}",
      "Payment link created successfully",
      ref("PaymentLink"),
    ),
    400: errorResponse("malformedJson"),
    403: errorResponse("unauthorized", "The token is read-only."),
    409: errorResponse(
      "idempotencyKeyReused",
      `${API_ERRORS.idempotencyKeyReused.when} Or a live key before a processor is connected, or any key once one is: "${API_ERRORS.paymentLinkWithProcessor.message}"`,
    ),
    422: validationErrorResponse("Validation failed."),
  },
  handler: async (context) => {
    refuseLiveWithoutProcessor(context.token);
    if (context.token.processor !== null) throw HttpError.of("paymentLinkWithProcessor");
    const { merchantId, body } = context;
    const { amount, ...link } = parseInput(createPaymentLinkSchema, body);
    const { result, replayedHeader } = await asApiAnswer(
      actOnce(
        context,
        { target: "payment_link", meaning: { payment_link: { ...link, amount: sameAmount(amount) } } },
        (executor) => createPaymentLink(executor, merchantId, body),
        async (executor, id) => getPaymentLink(executor, merchantId, id),
      ),
    );
    return jsonResponse(
      201,
      { message: "Payment link created successfully", data: result },
      { Location: `/api/payment-links/${result.id}`, ...replayedHeader },
    );
  },
});

export const showPaymentLinkRoute = defineRoute({
  method: "GET",
  path: "/api/payment-links/{id}",
  scope: "read",
  summary: "Retrieve one payment link",
  params: linkId,
  responses: { 200: dataResponse("The payment link.", ref("PaymentLink")), ...notYours },
  handler: async (context) => {
    const link = await getPaymentLink(context.db, context.merchantId, await ownedLinkId(context));
    return jsonResponse(200, { data: link });
  },
});

/** PATCH /api/payment-links/{id} `{active}`: an inactive link says so to its payers and creates nothing. */
export const updatePaymentLinkRoute = defineRoute({
  method: "PATCH",
  path: "/api/payment-links/{id}",
  scope: "write",
  summary: "Activate or deactivate a payment link (an inactive link says so and creates nothing)",
  params: linkId,
  body: jsonBody("UpdatePaymentLink"),
  responses: {
    200: dataResponse("The payment link.", ref("PaymentLink")),
    400: errorResponse("malformedJson"),
    ...notYours,
    422: validationErrorResponse("`active` is missing or not a boolean."),
  },
  handler: async (context) => {
    const id = await ownedLinkId(context);
    const link = await asApiAnswer(setPaymentLinkActive(context.db, context.merchantId, id, context.body));
    return jsonResponse(200, { data: link });
  },
});
