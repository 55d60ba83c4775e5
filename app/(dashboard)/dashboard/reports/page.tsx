import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { buttonClassName } from "@/components/ui/button";
import { readFor } from "@/db/replicas";
import {
  balanceFromTransactions,
  balanceSummary,
  DAY_MS,
  isoDay,
  periodInstants,
  type BalanceSummary,
} from "@/lib/ledger/balance-summary";
import { reportChoiceToQuery } from "@/lib/ledger/report-period";
import { transactionFiltersToQuery } from "@/lib/ledger/transaction-filters";
import { longDay, reportContext } from "./report-context";
import { ReportHeader } from "./report-header";
import { ReportTable, type ReportRow } from "./report-table";
import { TYPE_LABELS } from "../balance/balance-transactions-table";

export const metadata: Metadata = { title: "Reports" };

/** The summary in Stripe's order: opening (pending, available), activity, net activity, payouts, closing. */
function summaryRows(summary: BalanceSummary): ReportRow[] {
  const balance = (key: string, label: string, total: string, pending: string, available: string) => [
    { key, label, net: total, emphasis: "total" as const, testId: `${key}-balance` },
    { key: `${key}-pending`, label: "Pending", net: pending, emphasis: "part" as const },
    { key: `${key}-available`, label: "Available", net: available, emphasis: "part" as const },
  ];
  const line = (entry: BalanceSummary["activity"][number]): ReportRow => ({
    key: entry.type,
    label: TYPE_LABELS[entry.type],
    net: entry.net,
    line: entry,
  });
  return [
    ...balance(
      "opening",
      "Opening balance",
      summary.opening_balance,
      summary.opening_pending,
      summary.opening_available,
    ),
    ...summary.activity.map(line),
    { key: "net-activity", label: "Net activity", net: summary.net_activity, emphasis: "total" },
    ...summary.payouts.map(line),
    ...balance(
      "closing",
      "Closing balance",
      summary.closing_balance,
      summary.closing_pending,
      summary.closing_available,
    ),
  ];
}

/**
 * The accountant's month (DESIGN.md, "Reports"): for a month or two dates and a currency, the summary in the
 * merchant's report time zone, a mark that the closing balance equals what the transactions add up to, and
 * the CSVs of the summary and of the period's transactions.
 */
export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const { choice, errors, currencies, timeZone } = await reportContext(merchantId, await searchParams);
  const { currency, period } = choice;
  const [summary, fromTransactions] = await readFor(merchantId, (db) =>
    Promise.all([
      balanceSummary(db, merchantId, currency, period, timeZone),
      balanceFromTransactions(db, merchantId, currency, periodInstants(period, timeZone).to),
    ]),
  );
  const lastDay = isoDay(Date.parse(`${period.to}T00:00:00Z`) - DAY_MS);
  const agrees = fromTransactions === summary.closing_balance;
  return (
    <div className="max-w-5xl space-y-6">
      <ReportHeader
        path="/dashboard/reports"
        description="The balance summary of a period: what the balance was, what moved it, what was paid out, and what it came to."
        choice={choice}
        currencies={currencies}
        errors={errors}
        timeZone={timeZone}
      />
      <section aria-labelledby="summary-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="summary-heading" className="text-lg font-semibold">
            {currency} balance summary, {longDay(period.from)} – {longDay(lastDay)}
          </h2>
          <div className="flex flex-wrap gap-2">
            <a
              href={`/dashboard/reports/export${reportChoiceToQuery(choice)}`}
              className={buttonClassName("secondary")}
              download
            >
              Download summary CSV
            </a>
            <a
              href={`/dashboard/balance/transactions/export${transactionFiltersToQuery({ currency, from: period.from, to: lastDay })}`}
              className={buttonClassName("secondary")}
              download
            >
              Download transactions CSV
            </a>
          </div>
        </div>
        {summary.activity.length === 0 && summary.payouts.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Nothing moved the {currency} balance in this period.
          </p>
        ) : null}
        <ReportTable caption="Balance summary" rows={summaryRows(summary)} currency={currency} />
        {agrees ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            ✓ Equals the ledger: every transaction before {longDay(period.to)} adds up to the closing balance
            the ledger&apos;s accounts hold at that instant.
          </p>
        ) : (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            ✗ Does not equal the ledger: the transactions before {longDay(period.to)} add up to{" "}
            {formatMoney(fromTransactions, currency)}. Contact support with this report.
          </p>
        )}
      </section>
    </div>
  );
}
