import { z } from "zod";

// Report time zones (DESIGN.md, "Time zone"): IANA names, as the runtime's ICU knows them, and the UTC instants
// their days start at. Periods stay days (`YYYY-MM-DD`); only where a day starts moves.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter of an instant's wall-clock parts, made once a zone (their construction is slow). */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `name` is a time zone the runtime knows: an IANA name (any case) or UTC. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    wallClock(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone's own spelling of a name it knows ("europe/berlin" → "Europe/Berlin"). A current name the runtime's
 * ICU data files under an older one (Asia/Kolkata under Asia/Calcutta, Europe/Kyiv under Europe/Kiev) stays as
 * it was asked for: the same zone, in the name the merchant knows.
 */
export function canonicalTimeZone(name: string): string {
  const resolved = wallClock(name).resolvedOptions().timeZone;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** The zone's offset from UTC at an instant, in milliseconds (Berlin in winter: 3,600,000). */
function offsetAt(time: number, timeZone: string): number {
  const parts = Object.fromEntries(
    wallClock(timeZone)
      .formatToParts(new Date(time))
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(time / 1000) * 1000;
}

/**
 * The instant a day (`YYYY-MM-DD`) starts in a zone: 2026-11-01 in Europe/Berlin is 2026-10-31T23:00:00Z. The
 * offset is read twice, the second time at the first guess, so a day after a change of offset starts right.
 */
export function zonedDayStart(day: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const guess = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(guess, timeZone));
}

/** The calendar day after `day` (`YYYY-MM-DD`). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The instant a day (`YYYY-MM-DD`) ends in a zone: where the next day starts. */
export function zonedDayEnd(day: string, timeZone: string): Date {
  return zonedDayStart(nextDay(day), timeZone);
}

/** The day (`YYYY-MM-DD`) an instant falls on in a zone. */
export function zonedDay(time: number, timeZone: string): string {
  return new Date(time + offsetAt(time, timeZone)).toISOString().slice(0, 10);
}

/** The zones a merchant can choose from: UTC, then the runtime's IANA names. */
export function timeZoneChoices(current = "UTC"): string[] {
  const known = Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC");
  // A current name the runtime files under an older one (canonicalTimeZone) is offered too, or the select
  // would show another zone than the one in force.
  return ["UTC", ...(current === "UTC" || known.includes(current) ? known : [current, ...known].sort())];
}

/** A `timezone` query parameter: an IANA name, in the zone's own spelling; an unknown one is a 422 naming it. */
export function timeZoneField() {
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx): string | undefined => {
      if (value === undefined || value === "") return undefined;
      if (!isTimeZone(value)) {
        ctx.addIssue({
          code: "custom",
          message: `The timezone field must be an IANA time zone, as Europe/Berlin; ${value} is not one.`,
        });
        return z.NEVER;
      }
      return canonicalTimeZone(value);
    })
    .meta({ type: "string", examples: ["Europe/Berlin", "UTC"] });
}
