import { describe, expect, it, vi } from "vitest";
import { publicId, timeOfOrderedId, timeOrderedId } from "@/lib/platform/ids";

describe("public ids", () => {
  it("are the prefix and 22 base62 characters, never repeated", () => {
    const ids = Array.from({ length: 1000 }, () => publicId("evt"));
    for (const id of ids) expect(id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("made in time order sort in time order, across a change in the number of base-36 digits too", () => {
    vi.useFakeTimers();
    try {
      const ids: string[] = [];
      for (const at of [
        0,
        1,
        35,
        36,
        1_000,
        Date.UTC(2026, 10, 24),
        Date.UTC(2026, 10, 24) + 1,
        Date.UTC(2100, 0, 1),
      ]) {
        vi.setSystemTime(at);
        ids.push(timeOrderedId("req"));
      }
      for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{9}[0-9A-Za-z]{13}$/);
      // Plain code-unit order, as a C-collated index sorts them.
      expect([...ids].sort()).toEqual(ids);
      vi.setSystemTime(Date.UTC(2026, 10, 24));
      const same = Array.from({ length: 1000 }, () => timeOrderedId("req"));
      expect(new Set(same).size).toBe(same.length);
    } finally {
      vi.useRealTimers();
    }
  });

  it("carry the time they were made at, which timeOfOrderedId reads back; other ids carry none", () => {
    for (const at of [0, 1_000, Date.UTC(2026, 10, 24, 23, 59, 59, 999), Date.UTC(2100, 0, 1)])
      expect(timeOfOrderedId(timeOrderedId("req", at))).toBe(at);
    expect(timeOfOrderedId(`req_${"A".repeat(22)}`)).toBeNull();
    expect(timeOfOrderedId("req_short")).toBeNull();
    expect(timeOfOrderedId("")).toBeNull();
  });
});
