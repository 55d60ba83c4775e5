import { Link } from "@/components/link";
import { SwitchLinks } from "@/components/switch-links";
import { recentMonths, reportChoiceToQuery, type ReportChoice } from "@/lib/ledger/report-period";
import type { FieldErrors } from "@/lib/platform/errors";
import { PeriodForms } from "./period-forms";

const TABS = [
  { path: "/dashboard/reports", label: "Balance summary" },
  { path: "/dashboard/reports/payouts", label: "Payout reconciliation" },
] as const;

/**
 * The top of each Reports tab: its title, the tabs (each keeping the period and currency), the currency switch,
 * the period's forms, and the time zone its days are in (the merchant's, changed in Settings).
 */
export function ReportHeader({
  path,
  description,
  choice,
  currencies,
  errors,
  timeZone,
}: {
  path: (typeof TABS)[number]["path"];
  description: string;
  choice: ReportChoice;
  currencies: string[];
  errors: FieldErrors;
  timeZone: string;
}) {
  const query = reportChoiceToQuery(choice);
  return (
    <>
      <div>
        <h1 className="text-2xl font-semibold">Reports</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {description} Days are in <strong data-testid="report-timezone">{timeZone}</strong> (
          <Link href="/dashboard/settings" className="text-indigo-700 underline dark:text-indigo-300">
            change the report time zone
          </Link>
          ).
        </p>
      </div>
      <nav aria-label="Reports" className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {TABS.map((tab) => (
          <Link
            key={tab.path}
            href={`${tab.path}${query}`}
            aria-current={tab.path === path ? "page" : undefined}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-zinc-600 hover:text-zinc-900 aria-[current=page]:border-indigo-600 aria-[current=page]:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100 dark:aria-[current=page]:border-indigo-400 dark:aria-[current=page]:text-zinc-100"
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <SwitchLinks
        label="Report currency"
        options={currencies.map((code) => ({
          key: code,
          text: code,
          href: `${path}${reportChoiceToQuery({ ...choice, currency: code })}`,
          current: code === choice.currency,
        }))}
      />
      <PeriodForms
        key={query}
        path={path}
        choice={choice}
        months={recentMonths(24, timeZone)}
        errors={errors}
        timeZone={timeZone}
      />
    </>
  );
}
