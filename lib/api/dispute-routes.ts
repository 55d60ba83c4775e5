import { acceptDispute, saveEvidence } from "@/lib/disputes/evidence";
import { findDispute, listDisputes } from "@/lib/disputes/queries";
import { disputeEvidenceInputSchema, listDisputesQuerySchema } from "@/lib/disputes/schemas";
import { decideDisputeNow, disputePaymentNow } from "@/lib/disputes/simulator";
import { parseInput } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import { actionKeyParameter, actOnce } from "./idempotency-key";
import {
  dataResponse,
  errorResponse,
  jsonBody,
  pagedResponse,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { paginationEnvelope } from "./pagination";
import { idOf, pathId } from "./refund-routes";
import { asApiAnswer, jsonResponse } from "./responses";

// Disputes (DESIGN.md, "Disputes"): the payer's bank takes a payment back; the merchant answers or accepts.
// Another merchant's dispute is a 404, as none.

/** The evidence route's body limit: 1 MiB, where every other route's is 16 KiB. */
export const EVIDENCE_BODY_BYTES = 1024 * 1024;

const noSuchDispute = { 404: errorResponse("notFound", "No such dispute of this merchant.") };
const closed = {
  409: {
    description:
      "The dispute is closed (won, lost or warning_closed), or the Idempotency-Key was used with another request.",
  },
};

/** GET /api/disputes: newest first, by status and payment. */
export const listDisputesRoute = defineRoute({
  method: "GET",
  path: "/api/disputes",
  scope: "read",
  summary: "List disputes, newest first",
  query: listDisputesQuerySchema,
  responses: {
    200: pagedResponse("A page of disputes.", ref("Dispute")),
    422: validationErrorResponse("Bad page, perPage, status or payment_id."),
  },
  handler: async ({ read, merchantId, url, query }) => {
    const { items, total } = await read((db) => listDisputes(db, merchantId, query));
    return jsonResponse(200, {
      data: items,
      ...paginationEnvelope(url, query.page, query.perPage, total, items.length, {
        status: query.status,
        payment_id: query.payment_id,
      }),
    });
  },
});

/** GET /api/disputes/{id}. */
export const showDisputeRoute = defineRoute({
  method: "GET",
  path: "/api/disputes/{id}",
  scope: "read",
  summary: "Retrieve one dispute",
  params: idOf("dispute"),
  responses: { 200: dataResponse("The dispute.", ref("Dispute")), ...noSuchDispute },
  handler: async ({ db, merchantId, params }) => {
    const dispute = await findDispute(db, merchantId, pathId(params.id));
    if (!dispute) throw HttpError.of("notFound");
    return jsonResponse(200, { data: dispute });
  },
});

/** POST /api/disputes/{id}/evidence: a draft, or with `submit: true` the answer (final). */
export const disputeEvidenceRoute = defineRoute({
  method: "POST",
  path: "/api/disputes/{id}/evidence",
  scope: "write",
  summary: "Save evidence as a draft, or submit it (submit: true) for the bank to decide",
  params: idOf("dispute"),
  body: jsonBody("DisputeEvidence"),
  headers: [actionKeyParameter],
  // Eight texts of up to 20,000 characters each, four bytes apiece at most, and JSON's escapes.
  maxBodyBytes: EVIDENCE_BODY_BYTES,
  responses: {
    200: dataResponse("The dispute with its evidence.", ref("Dispute")),
    ...noSuchDispute,
    409: {
      description:
        "Closed, or its evidence already submitted (a retry with the Idempotency-Key of the submission replays it instead), or the key was used with another request.",
    },
    413: {
      description:
        'A body over 1 MiB, this route\'s own limit: "The request body must not be larger than 1024 KiB."',
    },
    422: validationErrorResponse(
      "A text that is not a string, or longer than 20,000 characters; submit not a boolean.",
    ),
  },
  handler: async (context) => {
    const { merchantId, body } = context;
    const disputeId = pathId(context.params.id);
    const meaning = { evidence_of: disputeId, ...parseInput(disputeEvidenceInputSchema, body ?? {}) };
    const { result, replayedHeader } = await asApiAnswer(
      actOnce(
        context,
        { target: "dispute", meaning },
        (executor) => saveEvidence(executor, merchantId, disputeId, body),
        (executor, id) => findDispute(executor, merchantId, id),
      ),
    );
    return jsonResponse(200, { data: result }, replayedHeader);
  },
});

/** POST /api/disputes/{id}/close: accept it (lost; an inquiry closes). */
export const closeDisputeRoute = defineRoute({
  method: "POST",
  path: "/api/disputes/{id}/close",
  scope: "write",
  summary: "Accept a dispute: it is lost (an inquiry is closed), and nothing is returned",
  params: idOf("dispute"),
  headers: [actionKeyParameter],
  responses: { 200: dataResponse("The closed dispute.", ref("Dispute")), ...noSuchDispute, ...closed },
  handler: async (context) => {
    const { merchantId } = context;
    const disputeId = pathId(context.params.id);
    const { result, replayedHeader } = await asApiAnswer(
      actOnce(
        context,
        { target: "dispute", meaning: { close_dispute: disputeId } },
        (executor) => acceptDispute(executor, merchantId, disputeId),
        (executor, id) => findDispute(executor, merchantId, id),
      ),
    );
    return jsonResponse(200, { data: result }, replayedHeader);
  },
});

/** POST /api/test-helpers/disputes/{id}/close `{outcome}`: the bank decides now. */
export const decideDisputeHelperRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/disputes/{id}/close",
  scope: "write",
  summary: "Test helper: the bank decides the dispute now (won: the amount reinstated, not the fee)",
  params: idOf("dispute"),
  body: jsonBody("DecideDispute"),
  responses: {
    200: dataResponse("The decided dispute.", ref("Dispute")),
    ...noSuchDispute,
    ...closed,
    422: validationErrorResponse("outcome must be won or lost."),
  },
  handler: async ({ db, merchantId, params, body }) => {
    const dispute = await asApiAnswer(decideDisputeNow(db, merchantId, pathId(params.id), body));
    return jsonResponse(200, { data: dispute });
  },
});

/** POST /api/test-helpers/payments/{id}/dispute `{reason?, inquiry?}`: the payer's bank disputes it now. */
export const openDisputeHelperRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/payments/{id}/dispute",
  scope: "write",
  summary: "Test helper: the payer's bank disputes a completed payment now (as the dispute test cards do)",
  params: idOf("payment"),
  body: jsonBody("OpenDispute", { required: false }),
  responses: {
    201: dataResponse("The dispute, opened.", ref("Dispute")),
    404: errorResponse("notFound", "No such payment of this merchant."),
    409: { description: "The payment is already disputed." },
    422: validationErrorResponse(
      "Not completed or fully refunded (errors.payment), or a bad reason or inquiry.",
    ),
  },
  handler: async ({ db, merchantId, params, body }) => {
    const dispute = await asApiAnswer(disputePaymentNow(db, merchantId, pathId(params.id), body));
    return jsonResponse(201, { data: dispute }, { Location: `/api/disputes/${dispute.id}` });
  },
});
