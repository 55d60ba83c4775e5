import { parse as parseDuration, pattern as durationPattern } from "iso8601-duration";
import { z } from "zod";
import { DAY_MS } from "@/lib/platform/day-count-pages";
import { validationError } from "@/lib/platform/errors";
import { isCalendarDay, parseInput } from "@/lib/platform/validation";

// What a test clock is given (DESIGN.md, "Test clock"): a create's start and an advance's target, checked.

/** How far back a clock may start. */
export const CLOCK_DAYS_BACK = 400;

/** An instant as a create or an advance sends it: a date (its midnight, UTC) or an ISO 8601 date-time. */
export function readInstant(value: string): Date | null {
  if (isCalendarDay(value)) return new Date(`${value}T00:00:00Z`);
  if (!z.iso.datetime({ offset: true }).safeParse(value).success) return null;
  return new Date(value);
}

const instantMessage = (field: string) =>
  `The ${field} field must be a date (2026-10-01) or an ISO 8601 date-time (2026-10-01T09:00:00Z).`;

/** A create's `clock`, checked: up to CLOCK_DAYS_BACK days back, not in the future. Undefined: real time. */
export function readClockStart(value: unknown, now = new Date()): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const at = typeof value === "string" ? readInstant(value) : null;
  if (!at) throw validationError({ clock: [instantMessage("clock")] });
  if (at.getTime() > now.getTime())
    throw validationError({ clock: ["The clock must not be in the future."] });
  if (at.getTime() < now.getTime() - CLOCK_DAYS_BACK * DAY_MS)
    throw validationError({ clock: [`The clock must not be more than ${CLOCK_DAYS_BACK} days back.`] });
  return at;
}

/** `by` added to `from` on the calendar, in UTC: P1M from 31 January is the last day of February. */
export function addDuration(from: Date, by: string): Date | null {
  if (!durationPattern.test(by) || !/\d/.test(by) || by.endsWith("T")) return null;
  let duration: ReturnType<typeof parseDuration>;
  try {
    duration = parseDuration(by);
  } catch {
    return null; // the pattern passes some it cannot read ("P1H": hours belong after T)
  }
  const { years = 0, months = 0, weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0 } = duration;
  if ([years, months, weeks, days, hours, minutes, seconds].some((part) => !(part >= 0))) return null;
  const to = new Date(from);
  const wholeMonths = years * 12 + months;
  if (wholeMonths !== 0) {
    const day = to.getUTCDate();
    to.setUTCDate(1);
    to.setUTCMonth(to.getUTCMonth() + wholeMonths);
    const lastDay = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
    to.setUTCDate(Math.min(day, lastDay));
  }
  return new Date(
    to.getTime() + ((weeks * 7 + days) * 86_400 + hours * 3_600 + minutes * 60 + seconds) * 1000,
  );
}

const advanceSchema = z.object({ to: z.unknown().optional(), by: z.unknown().optional() });

/** The instant an advance asks for, checked: one of `to` or `by`, not before the clock, within 400 days ahead. */
export function advanceTarget(input: unknown, clock: { now: Date }): Date {
  const { to, by } = parseInput(advanceSchema, input);
  if ((to === undefined) === (by === undefined))
    throw validationError({ to: ["Give either to (an instant) or by (an ISO 8601 duration such as P1D)."] });
  const field = to === undefined ? "by" : "to";
  const target =
    typeof to === "string" ? readInstant(to) : typeof by === "string" ? addDuration(clock.now, by) : null;
  if (!target)
    throw validationError({
      [field]: [
        field === "to"
          ? instantMessage("to")
          : "The by field must be an ISO 8601 duration such as P1D or PT2H.",
      ],
    });
  if (target.getTime() < clock.now.getTime())
    throw validationError({
      [field]: [`The clock only moves forward: it stands at ${clock.now.toISOString()}.`],
    });
  if (target.getTime() > Date.now() + CLOCK_DAYS_BACK * DAY_MS)
    throw validationError({ [field]: [`The clock moves at most ${CLOCK_DAYS_BACK} days past today.`] });
  return target;
}
