import type { Metadata } from "next";
import { z } from "zod";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { PayoutStatusBadge } from "@/components/status-badges";
import { FieldGrid } from "@/components/ui/field-grid";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { BackLink } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { can } from "@/lib/accounts/permissions";
import {
  listBalanceTransactions,
  payoutCarriedNet,
  transactionsOfSource,
} from "@/lib/ledger/balance-transactions";
import { payoutArrives } from "@/lib/payouts/schemas";
import { BalanceTransactionsTable } from "../../balance/balance-transactions-table";
import { cancelPayoutAction } from "../actions";
import { loadPayout } from "./load-payout";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const PER_PAGE = 50;
const querySchema = z.object({ page: z.coerce.number().int().min(1).catch(1).default(1) });

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { record: payout } = await loadPayout(params);
  return { title: `Payout ${payout.id}` };
}

/** One payout: where it stands, and the balance transactions it carried, which add up to it (reconciliation). */
export default async function PayoutPage({ params, searchParams }: Props) {
  const { merchantId, role, record: payout } = await loadPayout(params);
  const { page } = querySchema.parse(await searchParams);
  const returned = payout.status === "failed" || payout.status === "canceled";
  const [carried, carriedNet, returns] = await readFor(merchantId, (db) =>
    Promise.all([
      listBalanceTransactions(db, merchantId, { page, perPage: PER_PAGE, payout_id: payout.id }),
      payoutCarriedNet(db, merchantId, payout.id, payout.currency),
      returned ? transactionsOfSource(db, merchantId, ["payout_failure"], payout.id) : [],
    ]),
  );
  const pageCount = Math.max(1, Math.ceil(carried.total / PER_PAGE));
  const fields: Array<[string, React.ReactNode]> = [
    ["Amount", formatMoney(payout.amount, payout.currency)],
    ["Status", <PayoutStatusBadge key="status" status={payout.status} />],
    // A failed or canceled payout arrives nowhere.
    ["Arrival", payoutArrives(payout) ? payout.arrival_date : "—"],
    [
      "To",
      <span key="to" className="font-mono">
        •••• {payout.destination_last4}
      </span>,
    ],
    ["Created", <RelativeTime key="created" value={payout.created_at} />],
    ["Failure", payout.failure_reason ?? "—"],
  ];
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <BackLink href="/dashboard/payouts">Payouts</BackLink>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">
            Payout <span className="font-mono">{payout.id}</span>
          </h1>
          {payout.status === "pending" && can(role, "payouts:write") ? (
            <ConfirmActionButton
              action={cancelPayoutAction}
              fields={{ payout_id: payout.id }}
              label="Cancel payout"
              title="Cancel this payout?"
              description={`${formatMoney(payout.amount, payout.currency)} stays in your available balance, for the next payout.`}
              confirmLabel="Cancel payout"
            />
          ) : null}
        </div>
      </div>
      <FieldGrid fields={fields} columns={3} />
      {returned ? (
        <section className="space-y-3">
          <h2 className="text-base font-semibold">Money returned</h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="payout-returned">
            {payout.status === "failed" ? "This payout failed" : "This payout was canceled"}:{" "}
            {formatMoney(payout.amount, payout.currency)} returned to your available balance, below. The
            transactions it carried stay listed as what it tried to pay out.
          </p>
          <BalanceTransactionsTable
            moves={returns}
            caption="The transaction that returned this payout"
            empty="No return posted yet."
          />
        </section>
      ) : null}
      {/* No label of its own: the table is the region named "Transactions in this payout". */}
      <section className="space-y-3">
        <div className="flex items-baseline justify-between gap-3">
          <h2 className="text-base font-semibold">Transactions in this payout</h2>
          {carried.total > 0 ? (
            <a
              href={`/dashboard/payouts/${payout.id}/export`}
              download
              className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            >
              Download CSV
            </a>
          ) : null}
        </div>
        {carried.total > 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="reconciliation">
            {carried.total.toLocaleString("en-US")} transaction{carried.total === 1 ? "" : "s"}, net{" "}
            {formatMoney(carriedNet, payout.currency)}
            {carriedNet === payout.amount && !returned ? ": exactly this payout’s amount." : "."}
          </p>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            This payout of part of the balance was made before payouts of part carried their transactions: the
            next payout of all lists what it paid out.
          </p>
        )}
        {carried.total > 0 ? (
          <BalanceTransactionsTable
            moves={carried.items}
            caption="Transactions in this payout"
            empty="This payout carries no transactions."
          />
        ) : null}
        {carried.total > PER_PAGE ? (
          <Pagination
            label="Transaction pages"
            page={page}
            pageCount={pageCount}
            links={numberedPageLinks(
              page,
              pageCount,
              (target) => `/dashboard/payouts/${payout.id}?page=${target}`,
            )}
          />
        ) : null}
      </section>
    </div>
  );
}
