// The pure parts of the money pages: a balance chart's axis that may go below 0, and how a dispute's status
// reads.
import { describe, expect, it } from "vitest";
import { niceRangeTicks, niceTicks } from "@/components/chart-ticks";
import { disputeStatusLabel } from "@/components/status-badges";

describe("chart ticks", () => {
  it.each([
    [0, 9.41, [0, 5, 10]],
    [-55, 0, [-60, -40, -20, 0]],
    [-2, 7.41, [-5, 0, 5, 10]],
    [0, 0, [0, 1]],
  ])("from %d to %d: %j", (min, max, ticks) => {
    expect(niceRangeTicks(min, max)).toEqual(ticks);
  });

  it("niceTicks still starts at 0", () => {
    expect(niceTicks(1500)).toEqual([0, 500, 1000, 1500]);
  });
});

describe("dispute statuses", () => {
  it.each([
    ["needs_response", "needs response"],
    ["under_review", "under review"],
    ["warning_needs_response", "inquiry: needs response"],
    ["warning_closed", "inquiry: closed"],
    ["won", "won"],
  ] as const)("%s reads %s", (status, label) => {
    expect(disputeStatusLabel(status)).toBe(label);
  });
});
