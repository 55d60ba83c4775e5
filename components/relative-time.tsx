"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime } from "./format";

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
];
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });

/** "5 min ago", "in 23 hr", "just now". */
function describeRelative(date: Date, now = Date.now()): string {
  const seconds = (date.getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return seconds < 0 ? "just now" : "in a moment";
}

const subscribeToNothing = () => () => {};

/**
 * A time as people read it: relative ("5 min ago"), with the exact time in the browser's zone and in UTC on
 * hover. The server renders the UTC time (it does not know the browser's zone); the browser replaces it.
 */
export function RelativeTime({ value }: { value: Date | string }) {
  const date = new Date(value);
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const utc = formatDateTime(date);
  const local = inBrowser
    ? date.toLocaleString(undefined, {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        timeZoneName: "short",
      })
    : utc;
  return (
    <time
      dateTime={date.toISOString()}
      title={inBrowser ? `${local}\n${utc}` : utc}
      className="whitespace-nowrap"
    >
      {inBrowser ? describeRelative(date) : utc}
    </time>
  );
}
