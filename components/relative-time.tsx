"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime, formatRelativeTime } from "./format";

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
      {inBrowser ? formatRelativeTime(date) : utc}
    </time>
  );
}
