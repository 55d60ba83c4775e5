"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime, formatRelativeTime } from "./format";

const subscribeToNothing = () => () => {};

const useInBrowser = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

/** "2 Dec 2026, 20:54 CET": the browser's zone, as a person reads a time. */
const inLocalZone = (date: Date) =>
  date.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  });

/** The browser's IANA time zone ("UTC" until the page runs in one), for a form whose answer names a time. */
export function useBrowserTimeZone(): string {
  return useInBrowser() ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC";
}

/**
 * An exact time in the reader's zone ("2 Dec 2026, 20:54 CET"); the server renders UTC until the browser takes
 * over. `wrap`: the time may go below the date, in a table column that must stay narrow.
 */
export function LocalTime({ value, wrap = false }: { value: Date | string; wrap?: boolean }) {
  const date = new Date(value);
  const inBrowser = useInBrowser();
  return (
    <time
      dateTime={date.toISOString()}
      title={formatDateTime(date)}
      className={wrap ? undefined : "whitespace-nowrap"}
    >
      {inBrowser ? inLocalZone(date) : formatDateTime(date)}
    </time>
  );
}

/**
 * A time as people read it: relative ("5 min ago"), with the exact time in the browser's zone and in UTC on
 * hover. The server renders the UTC time (it does not know the browser's zone); the browser replaces it.
 */
export function RelativeTime({ value }: { value: Date | string }) {
  const date = new Date(value);
  const inBrowser = useInBrowser();
  const utc = formatDateTime(date);
  const local = inBrowser ? inLocalZone(date) : utc;
  return (
    <time
      dateTime={date.toISOString()}
      title={inBrowser ? `${local}\n${utc}` : utc}
      className="whitespace-nowrap"
    >
      {inBrowser ? formatRelativeTime(date) : utc}
    </time>
  );
}
