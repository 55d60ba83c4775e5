import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currencyChoices } from "@/app/_lib/currency-choices";
import { requireMerchantSession } from "@/app/_lib/session";
import { LiveRefresh } from "@/components/live-refresh";
import { SlashToSearch } from "@/components/slash-to-search";
import { buttonClassName } from "@/components/ui/button";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { readFor } from "@/db/replicas";
import { can } from "@/lib/accounts/permissions";
import { filtersToQuery, hasFilters, readPaymentFilters } from "@/lib/payments/filters";
import { searchPayments } from "@/lib/payments/search";
import { usedCurrencies } from "@/lib/payments/stats";
import { CreatePaymentDialog } from "./create-payment-dialog";
import { FilterChips } from "./filter-chips";
import { FiltersForm } from "./filters-form";
import { PaymentsTable } from "./payments-table";

export const metadata: Metadata = { title: "Payments" };

export default async function PaymentsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId, role, environment } = await requireMerchantSession();
  const { filters, errors } = readPaymentFilters(await searchParams, environment.reportTimezone);
  const [[{ items, total, totalIsCapped }, currencies], choices] = await Promise.all([
    readFor(merchantId, (db) =>
      Promise.all([searchPayments(db, merchantId, filters), usedCurrencies(db, merchantId)]),
    ),
    currencyChoices(merchantId),
  ]);
  const lastPage = Math.max(1, Math.ceil(total / filters.pageSize));
  const pageLink = (page: number) => `/dashboard/payments${filtersToQuery({ ...filters, page })}`;
  // A page past the end (an old link, a hand-edited URL) shows the last page instead of an empty one.
  if (filters.page > lastPage) redirect(pageLink(lastPage));
  return (
    <div className="max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Payments</h1>
        <div className="flex gap-2">
          <a
            href={`/dashboard/payments/export${filtersToQuery({ ...filters, page: 1 })}`}
            className={buttonClassName("secondary")}
            download
          >
            Export CSV
          </a>
          {/* Live has no test payments: its payments come from the API, taken by the processor. */}
          {can(role, "payments:write") && environment.kind === "sandbox" ? (
            <CreatePaymentDialog currencies={choices} />
          ) : null}
        </div>
      </div>
      <LiveRefresh active={items.some((payment) => payment.status === "pending")} />
      <SlashToSearch targetId="payment-search" />
      {/* Keyed by the query so a chip's removal or Back shows the URL's values, not the last typed ones. */}
      <FiltersForm key={filtersToQuery(filters)} filters={filters} errors={errors} currencies={currencies} />
      <FilterChips filters={filters} />
      <div className="relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
        {items.length > 0 ? (
          <PaymentsTable rows={items} total={total} page={filters.page} pageSize={filters.pageSize} />
        ) : (
          <p className="px-4 py-12 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {hasFilters(filters)
              ? "No payments match these filters."
              : "No payments yet. Create a test payment, or create one through the API."}
          </p>
        )}
      </div>
      <Pagination
        label="Pagination"
        page={filters.page}
        pageCount={lastPage}
        capped={totalIsCapped}
        links={numberedPageLinks(filters.page, lastPage, pageLink)}
        summary={`${total.toLocaleString("en-US")}${totalIsCapped ? "+" : ""} payment${total === 1 ? "" : "s"}`}
      />
    </div>
  );
}
