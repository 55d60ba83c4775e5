import { describe, expect, it } from "vitest";
import { addDuration, advanceTarget, readClockStart, readInstant } from "@/lib/environments/clock-input";
import { DomainError } from "@/lib/platform/errors";

const at = (iso: string) => new Date(iso);

function refusal(work: () => unknown): Record<string, string[]> | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error.fieldErrors;
    throw error;
  }
  return undefined;
}

describe("a test clock's input", () => {
  it("reads a date as its midnight UTC and a date-time with its offset", () => {
    expect(readInstant("2026-10-01")).toEqual(at("2026-10-01T00:00:00Z"));
    expect(readInstant("2026-10-01T09:30:00+02:00")).toEqual(at("2026-10-01T07:30:00Z"));
    for (const bad of ["2026-02-30", "1 October", "2026-10-01T09:30", ""])
      expect(readInstant(bad)).toBeNull();
  });

  it("adds durations on the calendar, in UTC: a month from 31 January is the last of February", () => {
    expect(addDuration(at("2026-01-31T12:00:00Z"), "P1M")).toEqual(at("2026-02-28T12:00:00Z"));
    expect(addDuration(at("2026-10-01T00:00:00Z"), "P1Y2M3DT4H5M6S")).toEqual(at("2027-12-04T04:05:06Z"));
    expect(addDuration(at("2026-10-01T00:00:00Z"), "P2W")).toEqual(at("2026-10-15T00:00:00Z"));
    expect(addDuration(at("2026-10-25T00:00:00Z"), "PT36H")).toEqual(at("2026-10-26T12:00:00Z"));
    for (const bad of ["P", "PT", "1D", "P1H", "P-1D", "one day"])
      expect(addDuration(at("2026-10-01"), bad)).toBeNull();
  });

  it("takes a start up to 400 days back, none in the future", () => {
    const now = at("2026-12-02T06:00:00Z");
    expect(readClockStart(undefined, now)).toBeUndefined();
    expect(readClockStart("2026-10-01", now)).toEqual(at("2026-10-01T00:00:00Z"));
    expect(refusal(() => readClockStart("2026-12-03", now))).toEqual({
      clock: ["The clock must not be in the future."],
    });
    expect(refusal(() => readClockStart("2025-10-27", now))?.clock?.[0]).toMatch(/400 days/);
    expect(refusal(() => readClockStart(20261001, now))?.clock?.[0]).toMatch(/must be a date/);
  });

  it("moves only forward, by one of to and by", () => {
    const clock = { now: at("2026-10-01T00:00:00Z") };
    expect(advanceTarget({ by: "P1D" }, clock)).toEqual(at("2026-10-02T00:00:00Z"));
    expect(advanceTarget({ to: "2026-10-01" }, clock)).toEqual(clock.now);
    expect(Object.keys(refusal(() => advanceTarget({}, clock))!)).toEqual(["to"]);
    expect(Object.keys(refusal(() => advanceTarget({ to: "2026-11-01", by: "P1D" }, clock))!)).toEqual([
      "to",
    ]);
    expect(refusal(() => advanceTarget({ to: "2026-09-30T23:59:59Z" }, clock))?.to?.[0]).toMatch(
      /only moves forward/,
    );
    expect(refusal(() => advanceTarget({ by: 1 }, clock))?.by?.[0]).toMatch(/ISO 8601 duration/);
  });
});
