import { z } from "zod";
import { BALANCE_TRANSACTION_TYPES } from "@/db/enums";
import { currencyFilter } from "@/lib/money/currencies";
import type { FieldErrors } from "@/lib/platform/errors";
import { nextDay, zonedDayEnd, zonedDayStart } from "@/lib/platform/time-zones";
import { isCalendarDay } from "@/lib/platform/validation";
import type { BalanceTransactionFilter } from "./balance-transactions";

// The dashboard's All transactions filters (DESIGN.md, "Reports"), read from the URL so a view can be shared and
// reloaded; its "Download CSV" takes the same query and exports exactly what the page lists.

export const TRANSACTION_PAGE_SIZE = 25;

const day = z.string().refine(isCalendarDay).optional().catch(undefined);

const transactionFiltersSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000_000).catch(1).default(1),
  type: z.enum(BALANCE_TRANSACTION_TYPES).optional().catch(undefined),
  currency: currencyFilter(),
  /** Only what this payout carried. Another merchant's payout matches nothing, as an unknown one. */
  payout: z
    .string()
    .regex(/^(?:po_)?[1-9]\d{0,17}$/)
    .transform((value) => Number(value.replace("po_", "")))
    .refine(Number.isSafeInteger)
    .optional()
    .catch(undefined),
  /** Created on or after this UTC day. */
  from: day,
  /** Created on or before this UTC day (the day runs to its end). */
  to: day,
});
export type TransactionFilters = z.infer<typeof transactionFiltersSchema>;

type SearchParams = Record<string, string | string[] | undefined>;
const given = (value: string | string[] | undefined) => typeof value === "string" && value.trim() !== "";

/**
 * Reads the filters from the page's or the export's query. A bad value filters nothing and comes back as a field
 * error for the form, naming what was wrong; so does a range that ends before it starts.
 */
export function readTransactionFilters(params: SearchParams): {
  filters: TransactionFilters;
  errors: FieldErrors;
} {
  const filters = transactionFiltersSchema.parse(params);
  const errors: FieldErrors = {};
  if (given(params.type) && !filters.type) errors.type = ["Choose a type from the list."];
  if (given(params.currency) && !filters.currency)
    errors.currency = ["The currency must be an ISO 4217 code, as EUR."];
  if (given(params.payout) && filters.payout === undefined)
    errors.payout = ["The payout must be a payout's id: 12 or po_12."];
  for (const field of ["from", "to"] as const)
    if (given(params[field]) && !filters[field])
      errors[field] = [`The ${field} date must be a real day (YYYY-MM-DD).`];
  if (filters.from && filters.to && filters.to < filters.from) {
    errors.to = ["The to date must be on or after the from date."];
    filters.to = undefined;
  }
  return { filters, errors };
}

export function hasTransactionFilters(filters: TransactionFilters): boolean {
  return Boolean(filters.type || filters.currency || filters.payout || filters.from || filters.to);
}

/** The filters as the list's (lib/ledger/balance-transactions.ts): days of the zone as instants, `to` to its end. */
export function toBalanceTransactionFilter(
  filters: TransactionFilters,
  timeZone = "UTC",
): Omit<BalanceTransactionFilter, "page" | "perPage"> {
  return {
    type: filters.type,
    currency: filters.currency,
    payout_id: filters.payout,
    created_from: filters.from ? zonedDayStart(filters.from, timeZone) : undefined,
    created_to: filters.to ? zonedDayEnd(filters.to, timeZone) : undefined,
  };
}

/** The URL query for filters (and optionally a page), omitting what is not set. */
export function transactionFiltersToQuery(filters: Partial<TransactionFilters>): string {
  const params = new URLSearchParams();
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  for (const key of ["type", "currency", "payout", "from", "to"] as const)
    if (filters[key] !== undefined) params.set(key, String(filters[key]));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * The transactions CSV's file name says what it holds: the period (its first day, and the day after its last, as
 * the Reports page's periods are written), the currency and any other filter, never the day it was made:
 * `balance-transactions-2026-11-01_2026-12-01-eur.csv`, `balance-transactions-all-payout-12.csv`.
 */
export function transactionsCsvName(filters: TransactionFilters): string {
  const after = filters.to ? nextDay(filters.to) : null;
  const period =
    filters.from && after
      ? `${filters.from}_${after}`
      : filters.from
        ? `${filters.from}_onwards`
        : after
          ? `until_${after}`
          : "all";
  const parts = [
    "balance-transactions",
    period,
    filters.currency?.toLowerCase(),
    filters.type?.replaceAll("_", "-"),
    filters.payout === undefined ? undefined : `payout-${filters.payout}`,
  ];
  return `${parts.filter(Boolean).join("-")}.csv`;
}
