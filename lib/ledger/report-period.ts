import { isCurrency } from "@/lib/money/currencies";
import type { FieldErrors } from "@/lib/platform/errors";
import { zonedDay } from "@/lib/platform/time-zones";
import { isCalendarDay } from "@/lib/platform/validation";
import { DAY_MS, isoDay, MAX_REPORT_DAYS } from "./balance-summary";

// The dashboard's Reports page reads its period from the URL: `month=2026-11`, or `from` and `to` as the first
// and last day, both included (the API's `to` is the day after: docs/money.md, "Reports").

export type ReportChoice = {
  currency: string;
  /** The month shown when no dates are, `YYYY-MM`. */
  month: string;
  /** The first UTC day, and the last (included), as the form shows them; set when chosen by dates. */
  firstDay?: string;
  lastDay?: string;
  /** The API's period: `from` inclusive, `to` exclusive. */
  period: { from: string; to: string };
};

type SearchParams = Record<string, string | string[] | undefined>;
const text = (value: string | string[] | undefined) =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** `YYYY-MM` of a month that exists, from year 1. */
function isMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value) && !value.startsWith("0000");
}

function monthPeriod(month: string) {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return { from: isoDay(Date.UTC(year, index - 1, 1)), to: isoDay(Date.UTC(year, index, 1)) };
}

/**
 * The report a page's query asks for. Dates win over a month; a bad value falls back to the current month in
 * the merchant's default currency and comes back as a field error naming it.
 */
export function readReportChoice(
  params: SearchParams,
  defaultCurrency: string,
  timeZone = "UTC",
  now = Date.now(),
): { choice: ReportChoice; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const currentMonth = zonedDay(now, timeZone).slice(0, 7);
  const rawCurrency = text(params.currency)?.toUpperCase();
  const currency = rawCurrency && isCurrency(rawCurrency) ? rawCurrency : defaultCurrency;
  if (rawCurrency && currency !== rawCurrency)
    errors.currency = ["The currency must be an ISO 4217 code, as EUR."];
  const rawMonth = text(params.month);
  const month = rawMonth && isMonth(rawMonth) ? rawMonth : currentMonth;
  if (rawMonth && month !== rawMonth) errors.month = ["The month must be a month, as 2026-11."];

  const firstDay = text(params.from);
  const lastDay = text(params.to);
  if (firstDay || lastDay) {
    const dayErrors: FieldErrors = {};
    if (!firstDay || !isCalendarDay(firstDay))
      dayErrors.from = ["The from date must be a real day (YYYY-MM-DD)."];
    if (!lastDay || !isCalendarDay(lastDay)) dayErrors.to = ["The to date must be a real day (YYYY-MM-DD)."];
    if (!dayErrors.from && !dayErrors.to) {
      const days = (Date.parse(lastDay!) - Date.parse(firstDay!)) / DAY_MS + 1;
      if (days < 1) dayErrors.to = ["The to date must be on or after the from date."];
      else if (days > MAX_REPORT_DAYS) dayErrors.to = [`A report covers at most ${MAX_REPORT_DAYS} days.`];
    }
    if (Object.keys(dayErrors).length === 0) {
      const to = isoDay(Date.parse(lastDay!) + DAY_MS);
      return { choice: { currency, month, firstDay, lastDay, period: { from: firstDay!, to } }, errors };
    }
    Object.assign(errors, dayErrors);
  }
  return { choice: { currency, month, period: monthPeriod(month) }, errors };
}

/** The page's query for a choice: the month, or the two days, and the currency. */
export function reportChoiceToQuery(choice: ReportChoice): string {
  const params = new URLSearchParams({ currency: choice.currency });
  if (choice.firstDay && choice.lastDay) {
    params.set("from", choice.firstDay);
    params.set("to", choice.lastDay);
  } else params.set("month", choice.month);
  return `?${params.toString()}`;
}

/** The last `count` months up to `now`'s (in a zone), newest first, `YYYY-MM`: the month select's choices. */
export function recentMonths(count: number, timeZone = "UTC", now = Date.now()): string[] {
  const today = new Date(`${zonedDay(now, timeZone)}T00:00:00Z`);
  return Array.from({ length: count }, (_, back) =>
    isoDay(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1)).slice(0, 7),
  );
}
