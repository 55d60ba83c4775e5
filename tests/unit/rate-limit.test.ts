import { describe, expect, it } from "vitest";
import { rateLimitDecision } from "@/lib/platform/rate-limit";

describe("GCRA decision (30 a minute: one request every 2 s, a burst of 30)", () => {
  it.each([
    [true, 1.9998, 29],
    [true, 2.0004, 29], // tat stored to the millisecond may read half a millisecond late
    [true, 31.5, 14],
    [true, 60, 0],
  ])("allowed=%s with tat %s s ahead leaves %i", (allowed, ahead, remaining) => {
    expect(rateLimitDecision(30, allowed, ahead)).toEqual({
      allowed,
      limit: 30,
      remaining,
      retryAfterSeconds: 0,
    });
  });

  it.each([
    [60, 2],
    [59.2, 2],
    [58.5, 1],
  ])("refused with tat %s s ahead: Retry-After %i", (ahead, retryAfter) => {
    expect(rateLimitDecision(30, false, ahead)).toEqual({
      allowed: false,
      limit: 30,
      remaining: 0,
      retryAfterSeconds: retryAfter,
    });
  });
});
