import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { SwitchLinks } from "@/components/switch-links";
import { readFor } from "@/db/replicas";
import { getBalance, balanceHistory } from "@/lib/ledger/balance";
import { listBalanceTransactions } from "@/lib/ledger/balance-transactions";
import { payoutOutlook } from "@/lib/payouts/queries";
import { BalanceChart } from "./balance-chart";
import { BalanceTransactionsTable } from "./balance-transactions-table";
import { NextPayout } from "./next-payout";
import { PayoutAccountWarning } from "./payout-account-warning";

export const metadata: Metadata = { title: "Balance" };

const RECENT = 25;
const card = "rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";
const muted = "text-sm text-zinc-600 dark:text-zinc-400";

/**
 * What the merchant has (available and pending, per currency), what comes next, how it moved, and what moved
 * it lately: the ledger as docs/money.md describes it. The chart shows one currency; a switch picks another.
 */
export default async function BalancePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const requested = (await searchParams).currency;
  const [balance, { items: moves }, outlook] = await readFor(merchantId, (db) =>
    Promise.all([
      getBalance(db, merchantId),
      listBalanceTransactions(db, merchantId, { page: 1, perPage: RECENT }),
      payoutOutlook(db, merchantId),
    ]),
  );
  const currencies = balance.available.map((entry) => entry.currency);
  const charted = currencies.find((code) => code === requested) ?? currencies[0];
  const history = charted ? await readFor(merchantId, (db) => balanceHistory(db, merchantId, charted)) : [];
  const amountIn = (list: typeof balance.available, currency: string) =>
    list.find((entry) => entry.currency === currency)?.amount ?? "0";
  return (
    <div className="max-w-6xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Balance</h1>
        <p className={`mt-1 ${muted}`}>
          Completed payments less fees are pending, then available to pay out; refunds take from what is
          available.
        </p>
      </div>
      {currencies.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No balance yet: a completed payment adds its net here.
        </p>
      ) : (
        <dl aria-label="Balance" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {currencies.map((currency) => (
            <div key={currency} className={card}>
              <dt className="text-sm font-medium text-zinc-600 dark:text-zinc-400">{currency}</dt>
              <dd className="mt-2 space-y-1">
                <p className="text-2xl font-semibold tabular-nums">
                  {formatMoney(amountIn(balance.available, currency), currency)}
                  <span className="ml-2 text-sm font-normal text-zinc-600 dark:text-zinc-400">available</span>
                </p>
                <p className="text-sm tabular-nums text-zinc-600 dark:text-zinc-400">
                  {formatMoney(amountIn(balance.pending, currency), currency)} pending
                </p>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <section aria-labelledby="next-payout-heading" className={`${card} space-y-2`}>
        <div className="flex items-baseline justify-between gap-3">
          <h2 id="next-payout-heading" className="text-base font-semibold">
            Next payout
          </h2>
          <Link
            href="/dashboard/payouts"
            className="text-sm text-indigo-700 hover:underline dark:text-indigo-300"
          >
            All payouts →
          </Link>
        </div>
        <PayoutAccountWarning account={outlook.account} />
        <NextPayout outlook={outlook} />
      </section>
      {charted ? (
        <section className={`${card} space-y-3`} aria-label="Balance over time">
          {currencies.length > 1 ? (
            <SwitchLinks
              label="Chart currency"
              options={currencies.map((code) => ({
                key: code,
                text: code,
                href: `/dashboard/balance?currency=${code}`,
                current: code === charted,
              }))}
            />
          ) : null}
          <BalanceChart points={history} currency={charted} />
        </section>
      ) : null}
      {/* No label of its own: the table is the region named "Recent balance transactions". */}
      <section className="space-y-3">
        <div className="flex items-baseline justify-between gap-3">
          <h2 className="text-lg font-semibold">Recent balance transactions</h2>
          <Link
            href="/dashboard/balance/transactions"
            className="text-sm text-indigo-700 hover:underline dark:text-indigo-300"
          >
            All transactions →
          </Link>
        </div>
        <BalanceTransactionsTable
          moves={moves}
          caption="Recent balance transactions"
          empty="Nothing has moved your balance yet."
        />
      </section>
    </div>
  );
}
