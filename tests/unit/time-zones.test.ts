// A report's days in a zone (DESIGN.md, "Time zone"): where they start and end, and how a zone's name is kept.
import { describe, expect, it } from "vitest";
import {
  canonicalTimeZone,
  isTimeZone,
  timeZoneChoices,
  zonedDay,
  zonedDayEnd,
  zonedDayStart,
} from "@/lib/platform/time-zones";

describe("a day of a time zone", () => {
  it("starts at the zone's midnight, in winter and in summer, and ends where the next starts", () => {
    expect(zonedDayStart("2026-11-01", "Europe/Berlin").toISOString()).toBe("2026-10-31T23:00:00.000Z");
    expect(zonedDayStart("2026-07-01", "Europe/Berlin").toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(zonedDayEnd("2026-10-31", "Europe/Berlin").toISOString()).toBe("2026-10-31T23:00:00.000Z");
    // The day summer time ends in Berlin is 25 hours long.
    const end = zonedDayEnd("2026-10-25", "Europe/Berlin").getTime();
    expect(end - zonedDayStart("2026-10-25", "Europe/Berlin").getTime()).toBe(25 * 3_600_000);
    expect(zonedDayStart("2026-11-01", "Asia/Kolkata").toISOString()).toBe("2026-10-31T18:30:00.000Z");
  });

  it("holds 23:30 UTC on 31 October in Berlin's 1 November", () => {
    expect(zonedDay(Date.parse("2026-10-31T23:30:00Z"), "Europe/Berlin")).toBe("2026-11-01");
    expect(zonedDay(Date.parse("2026-10-31T23:30:00Z"), "UTC")).toBe("2026-10-31");
  });

  it("keeps a zone's current name, spells a known one as the zone does, and knows no made-up zone", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(canonicalTimeZone("Europe/Kyiv")).toBe("Europe/Kyiv");
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("Europe/Berlin; drop table")).toBe(false);
  });

  it("offers the zone in force among Settings' choices, UTC first", () => {
    expect(timeZoneChoices()[0]).toBe("UTC");
    expect(timeZoneChoices("Asia/Kolkata")).toContain("Asia/Kolkata");
    expect(timeZoneChoices("Europe/Berlin").filter((zone) => zone === "Europe/Berlin")).toHaveLength(1);
  });
});
