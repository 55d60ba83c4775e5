import { memberForRoute } from "@/app/_lib/session";
import type { Executor } from "@/db/client";
import { readDbFor } from "@/db/replicas";
import { merchantDefaultCurrency } from "@/lib/accounts/merchants";
import { balanceSummary } from "@/lib/ledger/balance-summary";
import { readReportChoice, type ReportChoice } from "@/lib/ledger/report-period";
import { csvResponse } from "@/lib/platform/csv";

type Line = { line: string; count: number | null; amount: string | null; fee: string | null; net: string };

/** The summary as lines: the opening balance, one per type, the closing balance (net holds each balance). */
async function* summaryLines(
  db: Executor,
  merchantId: number,
  choice: ReportChoice,
): AsyncGenerator<Line[], void> {
  const summary = await balanceSummary(db, merchantId, choice.currency, choice.period);
  yield [
    { line: "opening_balance", count: null, amount: null, fee: null, net: summary.opening_balance },
    ...summary.activity.map((activity) => ({ ...activity, line: activity.type })),
    { line: "closing_balance", count: null, amount: null, fee: null, net: summary.closing_balance },
  ];
}

/** The Reports page's summary as CSV: the same period and currency as the page, as GET /api/reports has it. */
export async function GET(request: Request): Promise<Response> {
  const member = await memberForRoute();
  if (!member) return new Response("Log in to export a report.", { status: 401 });
  const { merchantId } = member;
  const db = await readDbFor(merchantId);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const { choice } = readReportChoice(params, await merchantDefaultCurrency(db, merchantId));
  const { currency, period } = choice;
  return csvResponse({
    header: ["currency", "from", "to", "line", "count", "amount", "fee", "net"],
    batches: summaryLines(db, merchantId, choice),
    toFields: (line) => [
      currency,
      period.from,
      period.to,
      line.line,
      line.count,
      line.amount,
      line.fee,
      line.net,
    ],
    filename: `balance-summary-${currency}-${period.from}-${period.to}.csv`,
  });
}
