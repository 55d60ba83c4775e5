import type { Executor } from "@/db/client";
import { balanceSummary } from "@/lib/ledger/balance-summary";
import { csvResponse } from "@/lib/platform/csv";
import { reportExportContext } from "../report-context";

type Line = { line: string; count: number | null; amount: string | null; fee: string | null; net: string };
const balance = (line: string, net: string): Line => ({ line, count: null, amount: null, fee: null, net });

/**
 * The summary as lines, in the page's order: the opening balance and its pending and available parts, one per
 * type of activity, the net activity, the payouts' lines, the closing balance and its parts.
 */
async function* summaryLines(
  db: Executor,
  merchantId: number,
  currency: string,
  period: { from: string; to: string },
  timeZone: string,
): AsyncGenerator<Line[], void> {
  const summary = await balanceSummary(db, merchantId, currency, period, timeZone);
  yield [
    balance("opening_balance", summary.opening_balance),
    balance("opening_pending", summary.opening_pending),
    balance("opening_available", summary.opening_available),
    ...summary.activity.map((activity) => ({ ...activity, line: activity.type })),
    balance("net_activity", summary.net_activity),
    ...summary.payouts.map((payout) => ({ ...payout, line: payout.type })),
    balance("closing_balance", summary.closing_balance),
    balance("closing_pending", summary.closing_pending),
    balance("closing_available", summary.closing_available),
  ];
}

/** The Reports page's summary as CSV: the same period, currency and time zone as the page and the API. */
export async function GET(request: Request): Promise<Response> {
  const report = await reportExportContext(request);
  if (!report) return new Response("Log in to export a report.", { status: 401 });
  const { db, merchantId, timeZone, currency, period } = report;
  return csvResponse({
    header: ["currency", "timezone", "from", "to", "line", "count", "amount", "fee", "net"],
    batches: summaryLines(db, merchantId, currency, period, timeZone),
    toFields: (line) => [
      currency,
      timeZone,
      period.from,
      period.to,
      line.line,
      line.count,
      line.amount,
      line.fee,
      line.net,
    ],
    filename: `balance-summary-${period.from}_${period.to}-${currency.toLowerCase()}.csv`,
  });
}
