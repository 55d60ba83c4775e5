/** Dashboard date display: UTC, to the minute, the same on server and client render. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return `${new Date(value).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A day, in UTC: "2026-03-01". */
export function formatDate(value: Date | string): string {
  return new Date(value).toISOString().slice(0, 10);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount as money reads, in its currency: "€12.50", "¥1,500", "KWD 1.250". The amount arrives in its
 * currency's minor units (the domain writes it so), and is formatted from the string itself, exactly: Intl
 * reads a numeric string as a decimal, never through a float, so 999999999999.99 stays exact. US English
 * everywhere, so the server's render and the browser's agree (docs/decisions.md).
 */
export function formatMoney(amount: string, currency: string): string {
  const places = amount.split(".")[1]?.length ?? 0;
  const key = `${currency}:${places}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: places,
      maximumFractionDigits: places,
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount as Intl.StringNumericLiteral);
}

/**
 * The unit a distance is told in, and the count it stays in that unit below: a count that rounds to the limit
 * moves up a unit, so 59.6 minutes is "1 hr", while a 24-hour grace still reads "24 hr" and a 30-day
 * expiry "30 days", as they were chosen.
 */
const RELATIVE_UNITS: Array<[Intl.RelativeTimeFormatUnit, seconds: number, below: number]> = [
  ["minute", 60, 60],
  ["hour", 3600, 25],
  ["day", 86_400, 45],
  ["month", 30 * 86_400, 12],
  ["year", 365 * 86_400, Infinity],
];
const relativeFormat = new Intl.RelativeTimeFormat("en", { style: "short" });

/**
 * "5 min ago", "in 24 hr", "just now", "in 4 sec": the nearest whole unit, never rounded down (a key made a
 * moment ago for 30 days ends "in 30 days", not "in 29"). A time to come within the minute counts its
 * seconds up (a retry 3.2 s away is "in 4 sec"), so it never reads as past. The one wording of relative time
 * in the dashboard.
 */
export function formatRelativeTime(value: Date | string, now = Date.now()): string {
  const seconds = (new Date(value).getTime() - now) / 1000;
  const distance = Math.abs(seconds);
  if (seconds > 0 && Math.ceil(seconds) < 60) return relativeFormat.format(Math.ceil(seconds), "second");
  if (seconds <= 0 && distance < 30) return "just now";
  const [unit, size] = RELATIVE_UNITS.find(([, size, below]) => Math.round(distance / size) < below)!;
  return relativeFormat.format(Math.sign(seconds) * Math.round(distance / size), unit);
}
