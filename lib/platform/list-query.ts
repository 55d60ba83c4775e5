import { z } from "zod";
import { zonedDayEnd, zonedDayStart } from "./time-zones";
import {
  attributeName,
  characterCount,
  idParam,
  isCalendarDay,
  isStorableInstant,
  messages,
} from "./validation";

// The query parameters every paged list of the API reads the same way: the page, a filter's text or choice,
// and a creation-time range. Laravel's words for each refusal.

const INTEGER_NUMERAL = /^[+-]?(0|[1-9]\d*)$/;

function pageParameter(field: string, { max, fallback }: { max: number; fallback: number }) {
  const documented = {
    type: "integer",
    minimum: 1,
    ...(max < Number.MAX_SAFE_INTEGER ? { maximum: max } : {}),
    default: fallback,
  };
  return z
    .unknown()
    .transform((value, ctx): number => {
      if (value === undefined) return fallback;
      if (typeof value !== "string" || !INTEGER_NUMERAL.test(value.trim())) {
        ctx.addIssue({ code: "custom", message: messages.integer(field) });
        return z.NEVER;
      }
      // Past the largest safe integer the double is inexact, but still greater than any max here.
      const number = Number(value);
      if (number < 1) ctx.addIssue({ code: "custom", message: messages.min(field, 1) });
      else if (number > max) ctx.addIssue({ code: "custom", message: messages.max(field, max) });
      return number;
    })
    .meta(documented);
}

/** `page` ≥ 1 (default 1), `perPage` 1..100 (default 10): every paged list of the API. */
export const pageQuerySchema = z.object({
  page: pageParameter("page", { max: Number.MAX_SAFE_INTEGER, fallback: 1 }),
  perPage: pageParameter("per_page", { max: 100, fallback: 10 }),
});

/** A filter by a record's id (`payment_id`, `payout_id`): absent or empty is no filter, else an id or a 422. */
export function queryId(field: string, { prefix }: { prefix?: string } = {}) {
  return z
    .unknown()
    .transform((value, ctx): number | undefined => {
      if (value === undefined || value === "") return undefined;
      // `po_12` as the CLI and the dashboard take it: the prefix some tools add to an id.
      const unprefixed =
        prefix && typeof value === "string" && value.startsWith(prefix) ? value.slice(prefix.length) : value;
      const id = idParam.safeParse(unprefixed);
      if (!id.success) {
        ctx.addIssue({ code: "custom", message: messages.integer(field) });
        return z.NEVER;
      }
      return id.data;
    })
    .meta({ type: "integer" });
}

/** A query filter's text: absent or empty is no filter; `name[]=…` (an array) is not a string. */
function textFilter(field: string) {
  return z.unknown().transform((value, ctx): string | undefined => {
    if (value === undefined || value === "") return undefined;
    if (typeof value !== "string") {
      ctx.addIssue({ code: "custom", message: messages.string(field) });
      return z.NEVER;
    }
    if (characterCount(value) > 255)
      ctx.addIssue({ code: "custom", message: messages.maxLength(field, 255) });
    return value;
  });
}

/** A query filter's value: text of up to 255 characters, or no filter. */
export function queryText(field: string) {
  return textFilter(field).meta({ type: "string", maxLength: 255 });
}

/** One of `values`, or no filter; anything else is Laravel's "The selected … is invalid.". */
export function queryChoice<const Values extends readonly string[]>(field: string, values: Values) {
  return textFilter(field)
    .refine(
      (value): value is Values[number] | undefined => value === undefined || values.includes(value),
      messages.in(field),
    )
    .meta({ type: "string", enum: [...values] }) as unknown as z.ZodType<Values[number] | undefined>;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * `created_from` / `created_to`: an ISO 8601 date or date-time (UTC unless it names an offset), both ends
 * inclusive. Read as instants bounding a half-open range: a `created_to` date runs to the end of its day.
 */
export function createdBound(field: string, end: "from" | "to") {
  return textFilter(field)
    .transform((value, ctx): Date | undefined => {
      if (value === undefined) return undefined;
      const dateOnly = ISO_DATE.test(value);
      const instant =
        dateOnly || ISO_DATE_TIME.test(value)
          ? new Date(dateOnly ? `${value}T00:00:00Z` : /Z|[+-]\d{2}:\d{2}$/.test(value) ? value : `${value}Z`)
          : new Date(NaN);
      // new Date rolls 2026-02-30 over to March: a day that does not exist is refused.
      if (Number.isNaN(instant.getTime()) || (dateOnly && !instant.toISOString().startsWith(value))) {
        ctx.addIssue({ code: "custom", message: `The ${attributeName(field)} field must be a valid date.` });
        return z.NEVER;
      }
      const bound = end === "from" ? instant : new Date(instant.getTime() + (dateOnly ? 86_400_000 : 1));
      // 9999-12-31 runs to a midnight in the year 10000, which the database refuses (it was a 500).
      if (!isStorableInstant(bound)) {
        ctx.addIssue({
          code: "custom",
          message: `The ${attributeName(field)} field must be a date between 0001-01-01 and 9999-12-30.`,
        });
        return z.NEVER;
      }
      return bound;
    })
    .meta({ type: "string", examples: ["2026-11-01", "2026-11-01T09:30:00Z"] });
}

/** `created_to` before `created_from` is a 422 on `created_to`, as Laravel's `after_or_equal`. */
export function createdRangeInOrder(
  query: { created_from?: Date; created_to?: Date },
  ctx: z.RefinementCtx,
): void {
  if (query.created_from && query.created_to && query.created_to <= query.created_from)
    ctx.addIssue({
      code: "custom",
      path: ["created_to"],
      message: "The created to field must be a date after or equal to created from.",
    });
}

/**
 * A `created_from` or `created_to` bound read in a time zone (DESIGN.md, "Time zone"): a date alone is that day
 * of the zone (from its start; `to` to its end), a date-time keeps its own offset.
 */
export function zonedCreatedBound(
  bound: Date | undefined,
  raw: string | null,
  timeZone: string,
  end: "from" | "to",
): Date | undefined {
  const day = raw?.trim();
  if (bound === undefined || !day || !ISO_DATE.test(day) || timeZone === "UTC") return bound;
  return end === "from" ? zonedDayStart(day, timeZone) : zonedDayEnd(day, timeZone);
}

/**
 * A UTC day, `YYYY-MM-DD` and nothing else (Laravel's `date_format:Y-m-d`): a report's `from` and `to`, which
 * are whole days because the reports read daily totals. Absent is undefined (the caller's default).
 */
export function queryDay(field: string) {
  return textFilter(field)
    .transform((value, ctx): string | undefined => {
      if (value === undefined) return undefined;
      if (!isCalendarDay(value)) {
        ctx.addIssue({
          code: "custom",
          message: `The ${attributeName(field)} field must match the format Y-m-d.`,
        });
        return z.NEVER;
      }
      return value;
    })
    .meta({ type: "string", format: "date", examples: ["2026-11-01"] });
}
