import { balanceSummary, balanceSummaryQuerySchema, reportPeriod } from "@/lib/ledger/balance-summary";
import type { BalanceSummaryQuery } from "@/lib/ledger/balance-summary";
import { payoutReconciliation } from "@/lib/ledger/payout-reconciliation";
import type { AuthenticatedToken } from "@/lib/tokens/authenticate";
import { defineRoute } from "./define-route";
import { dataResponse, ref, validationErrorResponse } from "./openapi-parts";
import { jsonResponse } from "./responses";

// The accountant's reports (DESIGN.md, "Reports: the accountant's month"), read from the ledger's totals, in the
// request's time zone or the merchant's.

const BAD_QUERY =
  "Bad currency, from, to (a day `YYYY-MM-DD`; to after from, at most 366 days) or timezone (an IANA name).";

/** What a report query names: its currency, time zone and period, each defaulted from the merchant's. */
function reportQuery(query: BalanceSummaryQuery, token: AuthenticatedToken) {
  const timeZone = query.timezone ?? token.reportTimezone;
  return {
    currency: query.currency ?? token.defaultCurrency,
    timeZone,
    period: reportPeriod(query, timeZone),
  };
}

/** GET /api/reports/balance-summary: opening balance, activity per type, payouts, closing balance. */
export const balanceSummaryRoute = defineRoute({
  method: "GET",
  path: "/api/reports/balance-summary",
  scope: "read",
  summary: "Balance summary of a period: opening balance, activity per type, payouts, closing balance",
  query: balanceSummaryQuerySchema,
  responses: {
    200: dataResponse(
      "The period's summary: closing_balance = opening_balance + net_activity + Σ payouts.net.",
      ref("BalanceSummary"),
    ),
    422: validationErrorResponse(BAD_QUERY),
  },
  handler: async ({ read, merchantId, token, query }) => {
    const { currency, timeZone, period } = reportQuery(query, token);
    const summary = await read((db) => balanceSummary(db, merchantId, currency, period, timeZone));
    return jsonResponse(200, { data: summary });
  },
});

/** GET /api/reports/payout-reconciliation: each payout of the period by type, then what was unpaid at its end. */
export const payoutReconciliationRoute = defineRoute({
  method: "GET",
  path: "/api/reports/payout-reconciliation",
  scope: "read",
  summary: "Payout reconciliation of a period: what each payout paid, by type, and what was left unpaid",
  query: balanceSummaryQuerySchema,
  responses: {
    200: dataResponse(
      "Each payout's lines add up to its amount; the unpaid lines add up to the closing balance.",
      ref("PayoutReconciliation"),
    ),
    422: validationErrorResponse(BAD_QUERY),
  },
  handler: async ({ read, merchantId, token, query }) => {
    const { currency, timeZone, period } = reportQuery(query, token);
    const reconciliation = await read((db) =>
      payoutReconciliation(db, merchantId, currency, period, timeZone),
    );
    return jsonResponse(200, { data: reconciliation });
  },
});
