import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { getBalance } from "@/lib/ledger/balance";
import { listBalanceTransactions } from "@/lib/ledger/balance-transactions";
import { listPayouts } from "@/lib/payouts/queries";

export const metadata: Metadata = { title: "Balance" };

const RECENT = 25;
const TYPE_LABELS: Record<string, string> = {
  payment: "Payment",
  refund: "Refund",
  refund_failure: "Refund failed",
  dispute: "Dispute",
  dispute_won: "Dispute won",
  payout: "Payout",
  payout_failure: "Payout returned",
  adjustment: "Adjustment",
};

/**
 * What the merchant has (available and pending, per currency), what moved it lately, and its payouts: the
 * ledger as docs/money.md describes it.
 */
export default async function BalancePage() {
  const { merchantId } = await requireMerchantSession();
  const [balance, { items: moves }, { items: payouts }] = await readFor(merchantId, (db) =>
    Promise.all([
      getBalance(db, merchantId),
      listBalanceTransactions(db, merchantId, { page: 1, perPage: RECENT }),
      listPayouts(db, merchantId, 1, 10),
    ]),
  );
  const currencies = balance.available.map((entry) => entry.currency);
  const amountIn = (list: typeof balance.available, currency: string) =>
    list.find((entry) => entry.currency === currency)?.amount ?? "0";
  return (
    <div className="max-w-6xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Balance</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
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
            <div
              key={currency}
              className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
            >
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
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Recent balance transactions</h2>
        <SimpleTable
          className="hidden sm:block"
          caption="Recent balance transactions"
          headings={[
            "Type",
            { label: "Amount", align: "right" },
            { label: "Fee", align: "right" },
            { label: "Net", align: "right" },
            "Status",
            "Available on",
            "Created",
          ]}
          empty="Nothing has moved your balance yet."
        >
          {moves.map((move) => (
            <tr key={move.id}>
              <td className="px-4 py-3">{TYPE_LABELS[move.type] ?? move.type}</td>
              <td className="px-4 py-3 text-right tabular-nums">{formatMoney(move.amount, move.currency)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{formatMoney(move.fee, move.currency)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{formatMoney(move.net, move.currency)}</td>
              <td className="px-4 py-3">{move.status === "available" ? "Available" : "Pending"}</td>
              <td className="whitespace-nowrap px-4 py-3">
                <RelativeTime value={move.available_on} />
              </td>
              <td className="whitespace-nowrap px-4 py-3">
                <RelativeTime value={move.created_at} />
              </td>
            </tr>
          ))}
        </SimpleTable>
        <CardList label="Recent balance transactions" empty="Nothing has moved your balance yet.">
          {moves.map((move) => (
            <Card key={move.id}>
              <p className="flex justify-between gap-2">
                <span>{TYPE_LABELS[move.type] ?? move.type}</span>
                <span className="tabular-nums">{formatMoney(move.net, move.currency)}</span>
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {move.status === "available" ? "Available" : "Pending"} ·{" "}
                <RelativeTime value={move.created_at} />
              </p>
            </Card>
          ))}
        </CardList>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Payouts</h2>
        <SimpleTable
          className="hidden sm:block"
          caption="Payouts"
          headings={[{ label: "Amount", align: "right" }, "Status", "To", "Arrival", "Created"]}
          empty="No payouts yet: set a payout account with PUT /api/payout-account."
        >
          {payouts.map((payout) => (
            <tr key={payout.id}>
              <td className="px-4 py-3 text-right tabular-nums">
                {formatMoney(payout.amount, payout.currency)}
              </td>
              <td className="px-4 py-3">
                {payout.status.replace("_", " ")}
                {payout.failure_reason ? (
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                    {payout.failure_reason}
                  </span>
                ) : null}
              </td>
              <td className="px-4 py-3 font-mono">•••• {payout.destination_last4}</td>
              <td className="px-4 py-3">{payout.arrival_date}</td>
              <td className="whitespace-nowrap px-4 py-3">
                <RelativeTime value={payout.created_at} />
              </td>
            </tr>
          ))}
        </SimpleTable>
        <CardList label="Payouts" empty="No payouts yet: set a payout account with PUT /api/payout-account.">
          {payouts.map((payout) => (
            <Card key={payout.id}>
              <p className="flex justify-between gap-2">
                <span className="tabular-nums">{formatMoney(payout.amount, payout.currency)}</span>
                <span>{payout.status.replace("_", " ")}</span>
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                To •••• {payout.destination_last4} · arrival {payout.arrival_date}
              </p>
            </Card>
          ))}
        </CardList>
      </section>
    </div>
  );
}
