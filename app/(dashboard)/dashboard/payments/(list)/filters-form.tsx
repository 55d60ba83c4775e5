"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { useDashboardHref } from "@/components/link";
import { Link } from "@/components/link";
import { buttonClassName } from "@/components/ui/button";
import { PAYMENT_STATUSES } from "@/db/enums";
import {
  DASHBOARD_PAGE_SIZES,
  filtersToQuery,
  REFUND_FILTERS,
  type PaymentFilters,
} from "@/lib/payments/filters";
import type { FieldErrors } from "@/lib/platform/errors";

const control =
  "block h-9 w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-indigo-600 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700";

/**
 * A date filter, with its field error (an impossible day, a reversed range) beside it. Text, not
 * `type="date"`: that shows the browser's locale (11/25/2026) while the chips and URL say 2026-11-25, and
 * the days are of the merchant's report time zone, which the label says.
 */
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
        type="text"
        name={name}
        inputMode="numeric"
        autoComplete="off"
        placeholder="YYYY-MM-DD"
        maxLength={10}
        defaultValue={value ?? ""}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorId : undefined}
        className={`${control} tabular-nums placeholder:text-zinc-500 dark:placeholder:text-zinc-400`}
      />
      {errors ? (
        <span id={errorId} className="block text-xs text-red-700 dark:text-red-400">
          {errors.join(" ")}
        </span>
      ) : null}
    </label>
  );
}

/**
 * A GET form: filters live in the URL, so any view can be shared, bookmarked and reloaded. With JavaScript it
 * leaves empty and default fields out of the URL, and status and page size apply as soon as they change;
 * without it, the server reads the same query.
 */
export function FiltersForm({
  filters,
  errors,
  currencies,
}: {
  filters: PaymentFilters;
  errors: FieldErrors;
  /** The currencies the merchant's payments are in: the currency filter's choices. */
  currencies: string[];
}) {
  const router = useRouter();
  const inEnvironment = useDashboardHref();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => {
      const entry = form.get(name);
      return typeof entry === "string" ? entry.trim() || undefined : undefined;
    };
    const query = filtersToQuery({
      status: value("status") as PaymentFilters["status"],
      refund: value("refund") as PaymentFilters["refund"],
      currency: value("currency"),
      q: value("q"),
      from: value("from"),
      to: value("to"),
      pageSize: Number(value("pageSize") ?? 25),
    });
    router.push(inEnvironment(`/dashboard/payments${query}`));
  };
  const applyAtOnce = (event: { currentTarget: HTMLSelectElement }) =>
    event.currentTarget.form?.requestSubmit();
  return (
    <form
      method="get"
      role="search"
      aria-label="Filter payments"
      onSubmit={onSubmit}
      className="grid grid-cols-2 gap-3 lg:grid-cols-[1fr_1.2fr_0.9fr_1fr_1fr_0.8fr_auto] lg:items-end"
    >
      {/* The search on a row of its own: beside six filters its placeholder would be cut off. */}
      <label className="col-span-2 max-w-xl space-y-1 text-sm lg:col-span-7">
        <span className="font-medium">Search</span>
        <input
          id="payment-search"
          type="search"
          name="q"
          aria-keyshortcuts="/"
          defaultValue={filters.q ?? ""}
          placeholder="Payment, external or customer ID"
          className={`${control} placeholder:text-zinc-500 dark:placeholder:text-zinc-400`}
        />
      </label>
      <label className="space-y-1 text-sm">
        <span className="font-medium">Status</span>
        <select name="status" defaultValue={filters.status ?? ""} onChange={applyAtOnce} className={control}>
          <option value="">All statuses</option>
          {PAYMENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label className="space-y-1 text-sm">
        <span className="font-medium">Refunds</span>
        <select name="refund" defaultValue={filters.refund ?? ""} onChange={applyAtOnce} className={control}>
          <option value="">Any</option>
          {REFUND_FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="space-y-1 text-sm">
        <span className="font-medium">Currency</span>
        <select
          name="currency"
          defaultValue={filters.currency ?? ""}
          onChange={applyAtOnce}
          className={control}
        >
          <option value="">All</option>
          {[...new Set([...currencies, ...(filters.currency ? [filters.currency] : [])])].map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <DateFilter
        name="from"
        label={`From (${filters.timeZone})`}
        value={filters.from}
        errors={errors.from}
      />
      <DateFilter name="to" label={`To (${filters.timeZone})`} value={filters.to} errors={errors.to} />
      <label className="space-y-1 text-sm">
        <span className="font-medium">Per page</span>
        <select
          name="pageSize"
          defaultValue={String(filters.pageSize)}
          onChange={applyAtOnce}
          className={control}
        >
          {DASHBOARD_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <div className="col-span-2 flex gap-2 lg:col-span-1">
        <button type="submit" className={buttonClassName("primary")}>
          Search
        </button>
        <Link href="/dashboard/payments" className={buttonClassName("ghost")}>
          Reset
        </Link>
      </div>
    </form>
  );
}
