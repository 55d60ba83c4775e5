import { describe, expect, it } from "vitest";
import { formatMoney, formatRelativeTime } from "@/components/format";

describe("formatMoney: in its currency, exactly, from the amount's own decimals", () => {
  it.each([
    ["12.50", "EUR", "€12.50"],
    ["1500", "JPY", "¥1,500"],
    ["1.250", "KWD", "KWD\u00a01.250"],
    ["0.00", "USD", "$0.00"],
    ["1250.00", "USD", "$1,250.00"],
    ["999999999999.99", "USD", "$999,999,999,999.99"],
    // Past a double's precision: still every digit.
    ["12345678901234567.89", "EUR", "€12,345,678,901,234,567.89"],
    ["-5.00", "GBP", "-£5.00"],
  ])("%s %s → %s", (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });
});

describe("formatRelativeTime rounds to the nearest unit, as people read it", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  const second = 1000;
  const minute = 60 * second;
  const hour = 60 * minute;
  const day = 24 * hour;
  it.each([
    ["a 30-day key made a moment ago", 30 * day - 2 * second, "in 30 days"],
    ["a 7-day invitation made a moment ago", 7 * day - 2 * second, "in 7 days"],
    ["a 24 h roll grace begun a moment ago", 24 * hour - 2 * second, "in 24 hr."],
    ["a 1 h roll grace begun a moment ago", hour - 2 * second, "in 1 hr."],
    ["a 7-day roll grace", 7 * day - 2 * second, "in 7 days"],
    ["a 90-day key", 90 * day - 2 * second, "in 3 mo."],
    ["a 365-day key", 365 * day - 2 * second, "in 1 yr."],
    ["the next retry in 28.6 minutes", 28.6 * minute, "in 29 min."],
    ["a retry due in seconds", 5 * second, "in 5 sec."],
    ["a retry 3.2 s away, counted up", 3.2 * second, "in 4 sec."],
    ["a retry a millisecond away", 1, "in 1 sec."],
    ["a retry 45 s away", 45 * second, "in 45 sec."],
    ["a retry 59.5 s away", 59.5 * second, "in 1 min."],
    ["this very moment", 0, "just now"],
    ["a request just made", -10 * second, "just now"],
    ["a minute and a half ago", -90 * second, "2 min. ago"],
    ["five minutes ago", -5 * minute + 3 * second, "5 min. ago"],
    ["a day and a half ago", -36 * hour, "2 days ago"],
    ["25 hours ago", -25 * hour, "1 day ago"],
  ])("%s: %s ms reads %j", (_label, offset, expected) => {
    expect(formatRelativeTime(new Date(now + offset), now)).toBe(expected);
  });
});
