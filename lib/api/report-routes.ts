import { balanceSummary, balanceSummaryQuerySchema, reportPeriod } from "@/lib/ledger/balance-summary";
import { defineRoute } from "./define-route";
import { dataResponse, ref, validationErrorResponse } from "./openapi-parts";
import { jsonResponse } from "./responses";

// The accountant's reports (DESIGN.md, "Reports: the accountant's month"), read from the ledger's daily totals.

/** GET /api/reports/balance-summary: opening balance, activity per type, closing balance. */
export const balanceSummaryRoute = defineRoute({
  method: "GET",
  path: "/api/reports/balance-summary",
  scope: "read",
  summary: "Balance summary of a period: opening balance, activity per type, closing balance",
  query: balanceSummaryQuerySchema,
  responses: {
    200: dataResponse(
      "The period's summary: closing_balance = opening_balance + Σ activity.net.",
      ref("BalanceSummary"),
    ),
    422: validationErrorResponse(
      "Bad currency, from or to (a day `YYYY-MM-DD`; to after from, at most 366 days).",
    ),
  },
  handler: async ({ read, merchantId, token, query }) => {
    const currency = query.currency ?? token.defaultCurrency;
    const summary = await read((db) => balanceSummary(db, merchantId, currency, reportPeriod(query)));
    return jsonResponse(200, { data: summary });
  },
});
