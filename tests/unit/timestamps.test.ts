import { describe, expect, it } from "vitest";
import { isoTimestamp, isoTimestampOrNull } from "@/lib/platform/timestamps";

describe("isoTimestamp", () => {
  it.each([
    // PostgreSQL's text for a UTC timestamptz drops trailing zeros of the fraction, and the fraction itself.
    ["2026-11-24 21:38:45.123+00", "2026-11-24T21:38:45.123Z"],
    ["2026-11-24 21:38:45.12+00", "2026-11-24T21:38:45.120Z"],
    ["2026-11-24 21:38:45.1+00", "2026-11-24T21:38:45.100Z"],
    ["2026-11-24 21:38:45+00", "2026-11-24T21:38:45.000Z"],
    // Microseconds (a timestamptz without precision) are cut to milliseconds, as Date does.
    ["2026-11-24 21:38:45.123456+00", "2026-11-24T21:38:45.123Z"],
    // Another offset (a server in another time zone) is converted, not rearranged.
    ["2026-11-24 22:38:45.5+01", "2026-11-24T21:38:45.500Z"],
    ["2026-11-24 16:08:45-05:30", "2026-11-24T21:38:45.000Z"],
  ])("%s is %s", (text, iso) => {
    expect(isoTimestamp(text)).toBe(iso);
    expect(isoTimestamp(text)).toBe(new Date(text).toISOString());
  });

  it("takes a Date, and null where a column may be null", () => {
    expect(isoTimestamp(new Date(Date.UTC(2026, 10, 24, 21, 38, 45, 7)))).toBe("2026-11-24T21:38:45.007Z");
    expect(isoTimestampOrNull(null)).toBeNull();
    expect(isoTimestampOrNull("2026-11-24 21:38:45+00")).toBe("2026-11-24T21:38:45.000Z");
  });
});
