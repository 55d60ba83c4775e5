import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { buttonClassName } from "@/components/ui/button";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { readFor } from "@/db/replicas";
import { getBalance } from "@/lib/ledger/balance";
import { listBalanceTransactions } from "@/lib/ledger/balance-transactions";
import {
  hasTransactionFilters,
  readTransactionFilters,
  toBalanceTransactionFilter,
  TRANSACTION_PAGE_SIZE,
  transactionFiltersToQuery,
} from "@/lib/ledger/transaction-filters";
import { BalanceTransactionsTable } from "../balance-transactions-table";
import { TransactionFiltersForm } from "./transaction-filters-form";

export const metadata: Metadata = { title: "All transactions" };

/**
 * Every balance transaction, newest first, paged like Payments and filtered by type, currency, payout and days
 * of the merchant's report time zone; "Download CSV" streams exactly what the filters match (DESIGN.md, "Reports").
 */
export default async function AllTransactionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId, environment } = await requireMerchantSession();
  const timeZone = environment.reportTimezone;
  const { filters, errors } = readTransactionFilters(await searchParams);
  const [{ items, total }, balance] = await readFor(merchantId, (db) =>
    Promise.all([
      listBalanceTransactions(db, merchantId, {
        ...toBalanceTransactionFilter(filters, timeZone),
        page: filters.page,
        perPage: TRANSACTION_PAGE_SIZE,
      }),
      getBalance(db, merchantId),
    ]),
  );
  const lastPage = Math.max(1, Math.ceil(total / TRANSACTION_PAGE_SIZE));
  const pageLink = (page: number) =>
    `/dashboard/balance/transactions${transactionFiltersToQuery({ ...filters, page })}`;
  // A page past the end (an old link, a hand-edited URL) shows the last page instead of an empty one.
  if (filters.page > lastPage) redirect(pageLink(lastPage));
  return (
    <div className="max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link
            href="/dashboard/balance"
            className="text-sm text-indigo-700 hover:underline dark:text-indigo-300"
          >
            ← Balance
          </Link>
          <h1 className="mt-1 text-2xl font-semibold">All transactions</h1>
        </div>
        <a
          href={`/dashboard/balance/transactions/export${transactionFiltersToQuery({ ...filters, page: 1 })}`}
          className={buttonClassName("secondary")}
          download
        >
          Download CSV
        </a>
      </div>
      <TransactionFiltersForm
        key={transactionFiltersToQuery(filters)}
        filters={filters}
        errors={errors}
        timeZone={timeZone}
        currencies={balance.available.map((entry) => entry.currency)}
      />
      <BalanceTransactionsTable
        moves={items}
        caption="All transactions"
        exactTimes
        empty={
          hasTransactionFilters(filters)
            ? "No balance transactions match these filters."
            : "Nothing has moved your balance yet."
        }
      />
      <Pagination
        label="Pagination"
        page={filters.page}
        pageCount={lastPage}
        links={numberedPageLinks(filters.page, lastPage, pageLink)}
        summary={`${total.toLocaleString("en-US")} transaction${total === 1 ? "" : "s"}`}
      />
    </div>
  );
}
