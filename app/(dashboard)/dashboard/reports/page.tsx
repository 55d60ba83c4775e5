import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { SwitchLinks } from "@/components/switch-links";
import { buttonClassName } from "@/components/ui/button";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { merchantDefaultCurrency } from "@/lib/accounts/merchants";
import { getBalance } from "@/lib/ledger/balance";
import { balanceFromTransactions, balanceSummary, DAY_MS, isoDay } from "@/lib/ledger/balance-summary";
import { readReportChoice, recentMonths, reportChoiceToQuery } from "@/lib/ledger/report-period";
import { transactionFiltersToQuery } from "@/lib/ledger/transaction-filters";
import { PeriodForms } from "./period-forms";
import { TYPE_LABELS } from "../balance/balance-transactions-table";

export const metadata: Metadata = { title: "Reports" };

const longDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

/**
 * The accountant's month (DESIGN.md, "Reports"): for a month or two dates and a currency, the opening balance,
 * a line per type of balance transaction, the closing balance, a mark that the closing balance equals what the
 * transactions add up to, and the CSVs of the summary and of the period's transactions.
 */
export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const params = await searchParams;
  const [defaultCurrency, balance] = await readFor(merchantId, (db) =>
    Promise.all([merchantDefaultCurrency(db, merchantId), getBalance(db, merchantId)]),
  );
  const { choice, errors } = readReportChoice(params, defaultCurrency);
  const { currency, period } = choice;
  const [summary, fromTransactions] = await readFor(merchantId, (db) =>
    Promise.all([
      balanceSummary(db, merchantId, currency, period),
      balanceFromTransactions(db, merchantId, currency, period.to),
    ]),
  );
  const lastDay = isoDay(Date.parse(`${period.to}T00:00:00Z`) - DAY_MS);
  const currencies = [...new Set([defaultCurrency, ...balance.available.map((entry) => entry.currency)])];
  const agrees = fromTransactions === summary.closing_balance;
  const money = (amount: string) => formatMoney(amount, currency);
  // A negative amount never wraps after its minus sign.
  const cell = "px-4 py-3 text-right tabular-nums whitespace-nowrap";
  const figure = "text-right tabular-nums whitespace-nowrap";
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Reports</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          The balance summary of a period: what the balance was, what moved it, and what it came to. Days are
          UTC.
        </p>
      </div>
      <SwitchLinks
        label="Report currency"
        options={currencies.map((code) => ({
          key: code,
          text: code,
          href: `/dashboard/reports${reportChoiceToQuery({ ...choice, currency: code })}`,
          current: code === currency,
        }))}
      />
      <PeriodForms
        key={reportChoiceToQuery(choice)}
        choice={choice}
        months={recentMonths(24)}
        errors={errors}
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
        <SimpleTable
          className="hidden sm:block"
          caption="Balance summary"
          headings={[
            "Type",
            { label: "Count", align: "right" },
            { label: "Amount", align: "right" },
            { label: "Fees", align: "right" },
            { label: "Net", align: "right" },
          ]}
          empty=""
        >
          {[
            <tr key="opening" className="font-medium">
              <th scope="row" className="px-4 py-3 text-left">
                Opening balance
              </th>
              <td className={cell} colSpan={3} />
              <td className={cell}>{money(summary.opening_balance)}</td>
            </tr>,
            ...summary.activity.map((line) => (
              <tr key={line.type}>
                <th scope="row" className="px-4 py-3 text-left font-normal">
                  {TYPE_LABELS[line.type]}
                </th>
                <td className={cell}>{line.count.toLocaleString("en-US")}</td>
                <td className={cell}>{money(line.amount)}</td>
                <td className={cell}>{money(line.fee)}</td>
                <td className={cell}>{money(line.net)}</td>
              </tr>
            )),
            ...(summary.activity.length === 0
              ? [
                  <tr key="none">
                    <td colSpan={5} className="px-4 py-3 text-zinc-600 dark:text-zinc-400">
                      Nothing moved the {currency} balance in this period.
                    </td>
                  </tr>,
                ]
              : []),
            <tr key="closing" className="font-semibold">
              <th scope="row" className="px-4 py-3 text-left">
                Closing balance
              </th>
              <td className={cell} colSpan={3} />
              <td className={cell}>{money(summary.closing_balance)}</td>
            </tr>,
          ]}
        </SimpleTable>
        {/* Below 640 px each line is a card: five columns do not fit a phone, and every figure must show. */}
        <CardList label="Balance summary" empty="">
          {[
            <Card key="opening">
              <p className="flex justify-between gap-3 font-medium">
                <span>Opening balance</span>
                <span className={figure}>{money(summary.opening_balance)}</span>
              </p>
            </Card>,
            ...summary.activity.map((line) => (
              <Card key={line.type}>
                <p className="font-medium">{TYPE_LABELS[line.type]}</p>
                <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
                  {(
                    [
                      ["Count", line.count.toLocaleString("en-US")],
                      ["Amount", money(line.amount)],
                      ["Fees", money(line.fee)],
                      ["Net", money(line.net)],
                    ] as const
                  ).map(([term, value]) => (
                    <div key={term} className="contents">
                      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
                      <dd className={figure}>{value}</dd>
                    </div>
                  ))}
                </dl>
              </Card>
            )),
            <Card key="closing">
              <p className="flex justify-between gap-3 font-semibold" data-testid="closing-balance">
                <span>Closing balance</span>
                <span className={figure}>{money(summary.closing_balance)}</span>
              </p>
            </Card>,
          ]}
        </CardList>
        {agrees ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            ✓ Equals the ledger: every transaction before {longDay(period.to)} adds up to the closing balance
            the ledger&apos;s accounts hold at that instant.
          </p>
        ) : (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            ✗ Does not equal the ledger: the transactions before {longDay(period.to)} add up to{" "}
            {money(fromTransactions)}. Contact support with this report.
          </p>
        )}
      </section>
    </div>
  );
}
