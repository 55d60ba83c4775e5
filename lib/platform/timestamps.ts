/** PostgreSQL's text for a timestamptz in UTC, as drizzle leaves it: `2026-11-24 21:38:45.12+00`. */
const POSTGRES_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,3})\d*)?\+00$/;

/**
 * A timestamp as the API shows it: `2026-11-24T21:38:45.120Z`. PostgreSQL's UTC text is rearranged without a
 * `Date`: in a process that also runs Next.js every `new Date` goes through its wrapper, and a page of
 * payments makes ten. Any other offset (a server set to another time zone) goes through `Date`.
 */
export function isoTimestamp(value: Date | string): string {
  if (typeof value === "string") {
    const utc = POSTGRES_UTC.exec(value);
    if (utc) return `${utc[1]}T${utc[2]}.${(utc[3] ?? "").padEnd(3, "0")}Z`;
  }
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** The same for a column that may be null (a delivery not yet attempted). */
export const isoTimestampOrNull = (value: Date | string | null): string | null =>
  value === null ? null : isoTimestamp(value);

/**
 * A `date` column as `YYYY-MM-DD`: drivers give its text, or a `Date` at UTC midnight (never the server's zone).
 * Read as it is rather than through `to_char`, which Citus refuses in a write's RETURNING (not immutable).
 */
export function isoDate(value: Date | string): string {
  return typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/** Whether `name` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A time as a person reads it, in their zone when it is known: "2 Dec 2026, 20:54 CET" (UTC otherwise). For
 * toasts and mail; the API keeps ISO 8601.
 */
export function readableTime(value: Date | string, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: isTimeZone(timeZone) ? timeZone : "UTC",
    timeZoneName: "short",
  }).format(new Date(value));
}
