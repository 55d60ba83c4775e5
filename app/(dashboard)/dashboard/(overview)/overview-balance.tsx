import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import type { Balance } from "@/lib/ledger/balance";
import type { PayoutOutlook } from "@/lib/payouts/queries";
import { NextPayout } from "../balance/next-payout";

/** The Overview opens with the balance: available and pending per currency, and the next payout. */
export function OverviewBalance({ balance, outlook }: { balance: Balance; outlook: PayoutOutlook }) {
  const pendingIn = (currency: string) =>
    balance.pending.find((entry) => entry.currency === currency)?.amount ?? "0";
  return (
    <section
      aria-labelledby="overview-balance-heading"
      className="grid gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 sm:grid-cols-[1fr_1fr] dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id="overview-balance-heading" className="text-base font-semibold">
            Balance
          </h2>
          <Link
            href="/dashboard/balance"
            className="text-sm text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Balance →
          </Link>
        </div>
        {balance.available.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No balance yet: completed payments add to it.
          </p>
        ) : (
          <ul className="space-y-1">
            {balance.available.map((entry) => (
              <li key={entry.currency} className="flex flex-wrap items-baseline gap-x-2">
                <span className="text-xl font-semibold tabular-nums">
                  {formatMoney(entry.amount, entry.currency)}
                </span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  available · {formatMoney(pendingIn(entry.currency), entry.currency)} pending
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="space-y-2">
        <h3 className="text-base font-semibold">Next payout</h3>
        <NextPayout outlook={outlook} />
      </div>
    </section>
  );
}
