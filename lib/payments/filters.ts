import { z } from "zod";
import { PAYMENT_STATUSES } from "@/db/enums";
import { currencyFilter } from "@/lib/money/currencies";
import type { FieldErrors } from "@/lib/platform/errors";
import { zonedDayEnd, zonedDayStart } from "@/lib/platform/time-zones";
import { isCalendarDay, isStorableText } from "@/lib/platform/validation";
import type { PaymentFilter } from "./list";

export const DASHBOARD_PAGE_SIZES = [10, 25, 50, 100] as const;

const date = z.string().refine(isCalendarDay).optional().catch(undefined);

/**
 * The dashboard's payment filters, read from the URL so a view can be shared and reloaded; the CSV export
 * takes the same ones. Bad values fall back to "no filter" instead of failing the page.
 */
const paymentFiltersSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000_000).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .refine((size) => (DASHBOARD_PAGE_SIZES as readonly number[]).includes(size))
    .catch(25)
    .default(25),
  status: z.enum(PAYMENT_STATUSES).optional().catch(undefined),
  /** What refunds took: "partial" (Partially refunded) or "full" (Refunded). */
  refund: z.enum(["partial", "full"]).optional().catch(undefined),
  /** Only payments in this currency (ISO 4217, any case in). */
  currency: currencyFilter(),
  /** The search box: a payment id, an external id prefix (any case) or a customer id. */
  q: z
    .string()
    .trim()
    .max(255)
    .refine(isStorableText)
    .optional()
    .catch(undefined)
    .transform((value) => value || undefined),
  /** Created on or after this day (of `timeZone`). */
  from: date,
  /** Created on or before this day (of `timeZone`). */
  to: date,
});

/** The URL's filters, and the merchant's report time zone: the one `from` and `to` are days of. */
export type PaymentFilters = z.infer<typeof paymentFiltersSchema> & { timeZone: string };

/** The refund filter's choices, with the words the list's badges use. */
export const REFUND_FILTERS = [
  ["partial", "Partially refunded"],
  ["full", "Refunded"],
] as const;

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * Reads the filters from a page's or the export's query. A bad value is left out of the query; a date that is
 * not a real day, or a range that ends before it starts, also comes back as a field error for the form.
 */
export function readPaymentFilters(
  params: SearchParams,
  timeZone = "UTC",
): { filters: PaymentFilters; errors: FieldErrors } {
  const filters = { ...paymentFiltersSchema.parse(params), timeZone };
  const errors: FieldErrors = {};
  for (const field of ["from", "to"] as const) {
    const raw = params[field];
    if (typeof raw === "string" && raw !== "" && filters[field] === undefined) {
      errors[field] = [`The ${field} date must be a real day (YYYY-MM-DD).`];
    }
  }
  if (filters.from && filters.to && filters.to < filters.from) {
    errors.to = ["The to date must be on or after the from date."];
    filters.to = undefined;
  }
  return { filters, errors };
}

export function hasFilters(filters: PaymentFilters): boolean {
  return Boolean(
    filters.status || filters.refund || filters.currency || filters.q || filters.from || filters.to,
  );
}

/** The dashboard's filters as the list's (lib/payments/list.ts): its days, of the zone, as instants. */
export function toPaymentFilter(filters: PaymentFilters): PaymentFilter {
  return {
    status: filters.status,
    refundStatus: filters.refund,
    currency: filters.currency,
    from: filters.from ? zonedDayStart(filters.from, filters.timeZone) : undefined,
    to: filters.to ? zonedDayEnd(filters.to, filters.timeZone) : undefined,
  };
}

/** The URL query for filters (and optionally a page), omitting defaults. */
export function filtersToQuery(filters: Partial<PaymentFilters>): string {
  const params = new URLSearchParams();
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  if (filters.pageSize && filters.pageSize !== 25) params.set("pageSize", String(filters.pageSize));
  for (const key of ["status", "refund", "currency", "q", "from", "to"] as const)
    if (filters[key]) params.set(key, String(filters[key]));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * The Overview's ranges: the last 7, 30 or 90 UTC days (today included), or all time. `?range=` takes one of
 * them; anything else shows 30 days. Every figure on the page is for the range.
 */
export const OVERVIEW_RANGES = [7, 30, 90, "all"] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];

const overviewRangeSchema = z
  .union([z.literal("all"), z.coerce.number()])
  .refine((range): range is OverviewRange => (OVERVIEW_RANGES as readonly unknown[]).includes(range))
  .catch(30);

export function readOverviewRange(params: SearchParams): OverviewRange {
  return overviewRangeSchema.parse(params.range);
}

/** "last 7 days", "all time": how the page names a range. */
export function overviewRangeLabel(range: OverviewRange): string {
  return range === "all" ? "all time" : `last ${range} days`;
}
