import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { buttonClassName } from "@/components/ui/button";
import { readFor } from "@/db/replicas";
import { DAY_MS, isoDay } from "@/lib/ledger/balance-summary";
import { payoutReconciliation, type ReconciliationLine } from "@/lib/ledger/payout-reconciliation";
import { reportChoiceToQuery } from "@/lib/ledger/report-period";
import { longDay, reportContext } from "../report-context";
import { ReportHeader } from "../report-header";
import { ReportTable, type ReportRow } from "../report-table";
import { LINE_LABELS } from "./reconciliation-rows";

export const metadata: Metadata = { title: "Payout reconciliation" };

const lineRows = (prefix: string, lines: ReconciliationLine[]): ReportRow[] =>
  lines.map((line) => ({
    key: `${prefix}-${line.type}`,
    label: LINE_LABELS[line.type],
    net: line.net,
    line,
  }));

/**
 * Payout reconciliation (DESIGN.md, "Payout reconciliation"): each payout made in the period with what it paid
 * by type, adding up to its amount, then what was not yet paid out at the period's end, adding up to the
 * closing balance; its CSV.
 */
export default async function PayoutReconciliationPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const { choice, errors, currencies, timeZone } = await reportContext(merchantId, await searchParams);
  const { currency, period } = choice;
  const reconciliation = await readFor(merchantId, (db) =>
    payoutReconciliation(db, merchantId, currency, period, timeZone),
  );
  const lastDay = isoDay(Date.parse(`${period.to}T00:00:00Z`) - DAY_MS);
  const money = (amount: string) => formatMoney(amount, currency);
  return (
    <div className="max-w-5xl space-y-6">
      <ReportHeader
        path="/dashboard/reports/payouts"
        description="What each payout of a period paid, by type, and what was left to pay at its end."
        choice={choice}
        currencies={currencies}
        errors={errors}
        timeZone={timeZone}
      />
      <section aria-labelledby="reconciliation-heading" className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="reconciliation-heading" className="text-lg font-semibold">
            {currency} payouts, {longDay(period.from)} – {longDay(lastDay)}
          </h2>
          <a
            href={`/dashboard/reports/payouts/export${reportChoiceToQuery(choice)}`}
            className={buttonClassName("secondary")}
            download
          >
            Download reconciliation CSV
          </a>
        </div>
        {reconciliation.payouts.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No {currency} payout was made in this period.
          </p>
        ) : null}
        {reconciliation.payouts.map((payout) => (
          <section key={payout.id} aria-labelledby={`payout-${payout.id}`} className="space-y-2">
            <h3
              id={`payout-${payout.id}`}
              className="flex flex-wrap items-baseline gap-x-3 text-base font-semibold"
            >
              <Link
                href={`/dashboard/payouts/${payout.id}`}
                className="text-indigo-700 hover:underline dark:text-indigo-300"
              >
                Payout {payout.id}
              </Link>
              <span className="tabular-nums">{money(payout.amount)}</span>
              <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">
                {payout.status}, arriving {longDay(payout.arrival_date)}
              </span>
            </h3>
            <ReportTable
              caption={`Payout ${payout.id}`}
              currency={currency}
              rows={[
                ...lineRows(`${payout.id}`, payout.lines),
                { key: `${payout.id}-total`, label: "Paid out", net: payout.amount, emphasis: "total" },
              ]}
            />
          </section>
        ))}
        <section aria-labelledby="unpaid-heading" className="space-y-2">
          <h3 id="unpaid-heading" className="text-base font-semibold">
            Not yet paid out on {longDay(period.to)}
          </h3>
          <ReportTable
            caption="Not yet paid out"
            currency={currency}
            rows={[
              ...lineRows("unpaid", reconciliation.unpaid),
              {
                key: "unpaid-total",
                label: "Closing balance",
                net: reconciliation.unpaid_total,
                emphasis: "total",
                testId: "unpaid-total",
              },
            ]}
          />
        </section>
      </section>
    </div>
  );
}
