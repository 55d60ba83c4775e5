import Link from "next/link";
import { buttonClassName } from "@/components/ui/button";
import { PAYMENT_STATUSES } from "@/db/enums";
import { DASHBOARD_PAGE_SIZES, type PaymentFilters } from "@/lib/payments/filters";
import type { FieldErrors } from "@/lib/platform/errors";

const control =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-indigo-600 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700";

/** A date filter, with its field error (an impossible day, a reversed range) beside it. */
function DateFilter({
  name,
  label,
  value,
  errors,
}: {
  name: string;
  label: string;
  value?: string;
  errors?: string[];
}) {
  const errorId = `${name}-error`;
  return (
    <label className="space-y-1 text-sm">
      <span className="font-medium">{label}</span>
      <input
        type="date"
        name={name}
        defaultValue={value ?? ""}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorId : undefined}
        className={control}
      />
      {errors ? (
        <span id={errorId} className="block text-xs text-red-700 dark:text-red-400">
          {errors.join(" ")}
        </span>
      ) : null}
    </label>
  );
}

/** A plain GET form: filters live in the URL, so any view can be shared, bookmarked and reloaded. */
export function FiltersForm({ filters, errors }: { filters: PaymentFilters; errors: FieldErrors }) {
  return (
    <form
      method="get"
      role="search"
      aria-label="Filter payments"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1.5fr_1fr_1fr_0.8fr_auto] lg:items-end"
    >
      <label className="space-y-1 text-sm">
        <span className="font-medium">Status</span>
        <select name="status" defaultValue={filters.status ?? ""} className={control}>
          <option value="">All statuses</option>
          {PAYMENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label className="space-y-1 text-sm">
        <span className="font-medium">External ID</span>
        <input
          id="payment-search"
          type="search"
          name="q"
          aria-keyshortcuts="/"
          defaultValue={filters.q ?? ""}
          placeholder="Exact external id"
          className={control}
        />
      </label>
      <DateFilter name="from" label="From" value={filters.from} errors={errors.from} />
      <DateFilter name="to" label="To" value={filters.to} errors={errors.to} />
      <label className="space-y-1 text-sm">
        <span className="font-medium">Per page</span>
        <select name="pageSize" defaultValue={String(filters.pageSize)} className={control}>
          {DASHBOARD_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <div className="flex gap-2">
        <button type="submit" className={buttonClassName("primary")}>
          Apply
        </button>
        <Link href="/dashboard/payments" className={buttonClassName("ghost")}>
          Reset
        </Link>
      </div>
    </form>
  );
}
