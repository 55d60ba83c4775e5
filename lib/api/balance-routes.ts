import { getBalance } from "@/lib/ledger/balance";
import {
  findBalanceTransaction,
  listBalanceTransactionsQuerySchema,
  listBalanceTransactions,
} from "@/lib/ledger/balance-transactions";
import { releaseMerchantBalance } from "@/lib/ledger/release";
import { zonedCreatedBound } from "@/lib/platform/list-query";
import { HttpError } from "./api-errors";
import { defineRoute } from "./define-route";
import { dataResponse, errorResponse, pagedResponse, ref, validationErrorResponse } from "./openapi-parts";
import { paginationEnvelope } from "./pagination";
import { idOf, pathId } from "./refund-routes";
import { jsonResponse } from "./responses";

// The merchant's money (DESIGN.md, "Balances, fees and payouts"): its balance, and the ledger's movements as
// balance transactions. Another merchant's balance transaction is a 404, as none (never named by its id alone).

/** GET /api/balance: available and pending, per currency. */
export const showBalanceRoute = defineRoute({
  method: "GET",
  path: "/api/balance",
  scope: "read",
  summary: "Retrieve the balance: available and pending, per currency",
  responses: { 200: dataResponse("The balance.", ref("Balance")) },
  handler: async ({ db, merchantId }) => jsonResponse(200, { data: await getBalance(db, merchantId) }),
});

/** GET /api/balance-transactions: newest first, by type, currency, payout and creation time. */
export const listBalanceTransactionsRoute = defineRoute({
  method: "GET",
  path: "/api/balance-transactions",
  scope: "read",
  summary: "List balance transactions (every movement of the balance), newest first",
  query: listBalanceTransactionsQuerySchema,
  responses: {
    200: pagedResponse("A page of balance transactions.", ref("BalanceTransaction")),
    422: validationErrorResponse(
      "Bad page, perPage, type, currency, payout_id, created_from, created_to or timezone.",
    ),
  },
  handler: async ({ read, merchantId, token, url, query }) => {
    const timeZone = query.timezone ?? token.reportTimezone;
    const filter = {
      ...query,
      created_from: zonedCreatedBound(
        query.created_from,
        url.searchParams.get("created_from"),
        timeZone,
        "from",
      ),
      created_to: zonedCreatedBound(query.created_to, url.searchParams.get("created_to"), timeZone, "to"),
    };
    const { items, total } = await read((db) => listBalanceTransactions(db, merchantId, filter));
    const kept = {
      type: query.type,
      currency: query.currency,
      payout_id: query.payout_id,
      created_from: query.created_from ? url.searchParams.get("created_from")! : undefined,
      created_to: query.created_to ? url.searchParams.get("created_to")! : undefined,
      timezone: query.timezone,
    };
    return jsonResponse(200, {
      data: items,
      ...paginationEnvelope(url, query.page, query.perPage, total, items.length, kept),
    });
  },
});

/** GET /api/balance-transactions/{id}. */
export const showBalanceTransactionRoute = defineRoute({
  method: "GET",
  path: "/api/balance-transactions/{id}",
  scope: "read",
  summary: "Retrieve one balance transaction",
  params: idOf("balance transaction"),
  responses: {
    200: dataResponse("The balance transaction.", ref("BalanceTransaction")),
    404: errorResponse("notFound", "No such balance transaction of this merchant."),
  },
  handler: async ({ db, merchantId, params }) => {
    const found = await findBalanceTransaction(db, merchantId, pathId(params.id));
    if (!found) throw HttpError.of("notFound");
    return jsonResponse(200, { data: found });
  },
});

/** POST /api/test-helpers/balance/release: every pending balance transaction available now. */
export const releaseBalanceHelperRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/balance/release",
  scope: "write",
  summary: "Test helper: make every pending balance transaction available now",
  responses: { 200: dataResponse("The balance after the release.", ref("Balance")) },
  handler: async ({ db, merchantId }) => {
    await releaseMerchantBalance(db, merchantId);
    return jsonResponse(200, { data: await getBalance(db, merchantId) });
  },
});
