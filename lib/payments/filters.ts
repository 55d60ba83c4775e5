import { z } from "zod";
import { PAYMENT_STATUSES } from "@/db/enums";

export const DASHBOARD_PAGE_SIZES = [10, 25, 50, 100] as const;

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

/**
 * The dashboard's payment filters, read from the URL so a view can be shared and reloaded; the CSV export
 * takes the same ones. Bad values fall back to "no filter" instead of failing the page.
 */
export const paymentFiltersSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000_000).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .refine((size) => (DASHBOARD_PAGE_SIZES as readonly number[]).includes(size))
    .catch(25)
    .default(25),
  status: z.enum(PAYMENT_STATUSES).optional().catch(undefined),
  /** Exact external id. */
  q: z
    .string()
    .trim()
    .max(255)
    .optional()
    .catch(undefined)
    .transform((value) => value || undefined),
  /** Created on or after this UTC day. */
  from: date,
  /** Created on or before this UTC day. */
  to: date,
});

export type PaymentFilters = z.infer<typeof paymentFiltersSchema>;

export function hasFilters(filters: PaymentFilters): boolean {
  return Boolean(filters.status || filters.q || filters.from || filters.to);
}

/** The URL query for filters (and optionally a page), omitting defaults. */
export function filtersToQuery(filters: Partial<PaymentFilters>): string {
  const params = new URLSearchParams();
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  if (filters.pageSize && filters.pageSize !== 25) params.set("pageSize", String(filters.pageSize));
  for (const key of ["status", "q", "from", "to"] as const)
    if (filters[key]) params.set(key, String(filters[key]));
  const query = params.toString();
  return query ? `?${query}` : "";
}
