import {
  getPayoutAccount,
  notifyOwnersOfChange,
  payoutAccountInputSchema,
  payoutAccountSchema,
  setPayoutAccount,
} from "@/lib/payouts/account";
import { cancelPayout, createPayout, findPayout, settlePayout } from "@/lib/payouts/payouts";
import { listPayouts } from "@/lib/payouts/queries";
import { parseInput } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import { actionKeyParameter, actOnce, idempotencyKeyParameter, readIdempotencyKey } from "./idempotency-key";
import {
  createdResponse,
  dataResponse,
  errorResponse,
  jsonBody,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { pagedListRoute } from "./paged-list-route";
import { idOf, pathId } from "./refund-routes";
import { asApiAnswer, jsonResponse } from "./responses";
import { apiActor } from "./security-actor";

// Payouts and where they go (DESIGN.md, "Balances, fees and payouts"). Another merchant's payout is a 404.

const noSuchPayout = { 404: errorResponse("notFound", "No such payout of this merchant.") };

/** GET /api/payout-account: the account payouts go to (its IBAN's last 4 only), or 404 before one is set. */
export const showPayoutAccountRoute = defineRoute({
  method: "GET",
  path: "/api/payout-account",
  scope: "read",
  summary: "Retrieve the payout account (the IBAN's last 4 only)",
  responses: {
    200: dataResponse("The payout account.", ref("PayoutAccount")),
    404: errorResponse("notFound", "No payout account yet."),
  },
  handler: async ({ db, merchantId }) => {
    const account = await getPayoutAccount(db, merchantId);
    if (!account) throw HttpError.of("notFound");
    return jsonResponse(200, { data: account });
  },
});

/** PUT /api/payout-account `{account_holder, iban}`: sets or replaces it; the IBAN is stored encrypted. */
export const setPayoutAccountRoute = defineRoute({
  method: "PUT",
  path: "/api/payout-account",
  scope: "write",
  summary:
    "Set the payout account: an account holder and an IBAN (checked by mod 97). Needs a key with the payout_account scope.",
  body: jsonBody("PayoutAccountInput"),
  headers: [actionKeyParameter],
  responses: {
    200: dataResponse("The payout account.", ref("PayoutAccount")),
    403: errorResponse("unauthorized", "A key without the payout_account scope (only an owner grants it)."),
    409: errorResponse("idempotencyKeyReused"),
    422: validationErrorResponse("A missing account_holder, or an IBAN that fails its check."),
  },
  handler: async (context) => {
    const { db, merchantId, body } = context;
    // Where the money goes is changed only by a key an owner made for it (DESIGN.md, "API tokens").
    const { payoutAccount, ...by } = await apiActor(context);
    if (!payoutAccount) throw HttpError.of("unauthorized");
    const meaning = { payout_account: parseInput(payoutAccountInputSchema, body) };
    const { result, replayedHeader } = await asApiAnswer(
      actOnce(
        context,
        { target: "payout_account", meaning },
        async (executor) => ({ id: merchantId, ...(await setPayoutAccount(executor, merchantId, body, by)) }),
        async (executor, id) => {
          const account = await getPayoutAccount(executor, id);
          return account ? { id, ...account, replaced_last4: null } : undefined;
        },
      ),
    );
    const account = payoutAccountSchema.parse(result);
    // A replacement (never its replay) is mailed to every owner, once committed.
    if (result.replaced_last4 !== null) await notifyOwnersOfChange(db, merchantId, account, by);
    return jsonResponse(200, { data: account }, replayedHeader);
  },
});

/** GET /api/payouts: newest first. */
export const listPayoutsRoute = pagedListRoute({
  path: "/api/payouts",
  summary: "List payouts, newest first",
  items: "payouts",
  schema: "Payout",
  list: listPayouts,
});

/** POST /api/payouts `{currency, amount?}`: 201 with the payout (pending), and its Location. */
export const createPayoutRoute = defineRoute({
  method: "POST",
  path: "/api/payouts",
  scope: "write",
  summary: "Pay out the available balance of a currency (or part of it) to the payout account",
  headers: [
    idempotencyKeyParameter(
      "As on payment creation: same key and body within 24 h returns the first payout (Idempotent-Replayed: true) without paying out again; another body, 409.",
    ),
  ],
  body: jsonBody("CreatePayout"),
  responses: {
    201: createdResponse(
      "Created (pending).",
      "/api/payouts/{id}",
      "Payout created successfully",
      ref("Payout"),
    ),
    409: errorResponse("idempotencyKeyReused"),
    422: validationErrorResponse(
      "A bad currency or amount, more than is available (errors.amount names it), or no payout account, or one replaced within PAYOUT_ACCOUNT_CHANGE_HOLD (errors.payout_account: “Payouts to the new account start at …”).",
    ),
  },
  handler: async (context) => {
    const { db, env, merchantId, body, request } = context;
    const idempotencyKey = readIdempotencyKey(request);
    // Money leaving is recorded as the key and its maker, as the dashboard records its member.
    const by = await apiActor(context);
    const { payout, replayed } = await asApiAnswer(
      createPayout(db, merchantId, body, { autoSettleMs: env.PAYMENTS_AUTO_SETTLE_MS, idempotencyKey, by }),
    );
    return jsonResponse(
      201,
      { message: "Payout created successfully", data: payout },
      { Location: `/api/payouts/${payout.id}`, ...(replayed ? { "Idempotent-Replayed": "true" } : {}) },
    );
  },
});

/** GET /api/payouts/{id}. */
export const showPayoutRoute = defineRoute({
  method: "GET",
  path: "/api/payouts/{id}",
  scope: "read",
  summary: "Retrieve one payout",
  params: idOf("payout"),
  responses: { 200: dataResponse("The payout.", ref("Payout")), ...noSuchPayout },
  handler: async ({ db, merchantId, params }) => {
    const payout = await findPayout(db, merchantId, pathId(params.id));
    if (!payout) throw HttpError.of("notFound");
    return jsonResponse(200, { data: payout });
  },
});

/** POST /api/payouts/{id}/cancel: while pending; the money is available again (payout.canceled). */
export const cancelPayoutRoute = defineRoute({
  method: "POST",
  path: "/api/payouts/{id}/cancel",
  scope: "write",
  summary: "Cancel a pending payout: its amount is available again",
  params: idOf("payout"),
  headers: [actionKeyParameter],
  responses: {
    200: dataResponse("The canceled payout.", ref("Payout")),
    ...noSuchPayout,
    409: { description: "No longer pending, or the Idempotency-Key was used with another request." },
  },
  handler: async (context) => {
    const { merchantId } = context;
    const payoutId = pathId(context.params.id);
    const { result: payout, replayedHeader } = await asApiAnswer(
      actOnce(
        context,
        { target: "payout", meaning: { cancel_payout: payoutId } },
        (executor) => cancelPayout(executor, merchantId, payoutId),
        (executor, id) => findPayout(executor, merchantId, id),
      ),
    );
    return jsonResponse(200, { data: payout }, replayedHeader);
  },
});

/** POST /api/test-helpers/payouts/{id}/settle `{outcome?}`: to its end now. */
export const settlePayoutHelperRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/payouts/{id}/settle",
  scope: "write",
  summary: "Test helper: move a payout to its end now (without outcome: as the simulator would)",
  params: idOf("payout"),
  body: jsonBody("SettlePayout", { required: false }),
  responses: {
    200: dataResponse("The settled payout.", ref("Payout")),
    ...noSuchPayout,
    409: { description: "Already paid, failed or canceled (final)." },
    422: validationErrorResponse("outcome must be paid or failed."),
  },
  handler: async ({ db, merchantId, params, body }) => {
    const payout = await asApiAnswer(settlePayout(db, merchantId, pathId(params.id), body));
    return jsonResponse(200, { data: payout });
  },
});
