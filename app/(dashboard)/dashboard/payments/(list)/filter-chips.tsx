import { Link } from "@/components/link";
import { filtersToQuery, REFUND_FILTERS, type PaymentFilters } from "@/lib/payments/filters";

// "Matching", not "Search": the search box is the one thing on the page labelled so.
const CHIP_LABELS = {
  q: "Matching",
  status: "Status",
  refund: "Refunds",
  currency: "Currency",
  from: "From",
  to: "To",
} as const;

/** A chip's label: a date's says which zone its day is of. */
function chipLabel(filters: PaymentFilters, key: keyof typeof CHIP_LABELS): string {
  return key === "from" || key === "to" ? `${CHIP_LABELS[key]} (${filters.timeZone})` : CHIP_LABELS[key];
}

/** How a chip shows a filter's value: the refund filter's by its label. */
function chipValue(filters: PaymentFilters, key: keyof typeof CHIP_LABELS): string {
  if (key === "refund") return REFUND_FILTERS.find(([value]) => value === filters.refund)?.[1] ?? "";
  return String(filters[key]);
}

/** The filters in force, each removable on its own; "Clear all" when there are two or more. */
export function FilterChips({ filters }: { filters: PaymentFilters }) {
  const active = (Object.keys(CHIP_LABELS) as Array<keyof typeof CHIP_LABELS>).filter((key) => filters[key]);
  if (active.length === 0) return null;
  const without = (key: keyof typeof CHIP_LABELS) =>
    `/dashboard/payments${filtersToQuery({ ...filters, [key]: undefined, page: 1 })}`;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap items-center gap-2 text-sm">
      {active.map((key) => (
        <li key={key}>
          <Link
            href={without(key)}
            aria-label={`Remove filter ${chipLabel(filters, key)}: ${chipValue(filters, key)}`}
            className="inline-flex items-center gap-1.5 rounded-full bg-indigo-50 py-1 pl-3 pr-2 text-indigo-800 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-100 dark:bg-indigo-950 dark:text-indigo-200 dark:ring-indigo-800 dark:hover:bg-indigo-900"
          >
            <span>
              {chipLabel(filters, key)}: <span className="font-medium">{chipValue(filters, key)}</span>
            </span>
            <span aria-hidden="true" className="text-base leading-none">
              ×
            </span>
          </Link>
        </li>
      ))}
      {active.length > 1 ? (
        <li>
          <Link
            href={`/dashboard/payments${filtersToQuery({ pageSize: filters.pageSize })}`}
            className="text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400"
          >
            Clear all
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
