// The balance summary as the report tests read it (GET /api/reports/balance-summary's `data`), and the
// identities every summary holds (DESIGN.md, "Reports", "Payouts apart").
import type { components } from "@payments-platform/sdk";
import { expect } from "vitest";
import { PAYOUT_TYPES } from "@/lib/ledger/balance-summary";

export type Summary = components["schemas"]["BalanceSummary"];
export type Line = Summary["activity"][number];

/** Two-decimal amounts as cents, exactly: "-42.10" → -4210n. */
export const cents = (amount: string) => BigInt(amount.replace(".", ""));
/** Σ net of lines, in cents. */
export const sumNet = (lines: ReadonlyArray<{ net: string }>) =>
  lines.reduce((total, line) => total + cents(line.net), 0n);

/**
 * closing = opening + net_activity + Σ payouts.net, net_activity = Σ activity.net, each balance is its pending +
 * available, each line's net is its amount − fee, and the payout types stand under `payouts` alone.
 */
export function expectSummaryAddsUp(report: Summary) {
  const text = JSON.stringify(report);
  expect(cents(report.net_activity), text).toBe(sumNet(report.activity));
  expect(cents(report.closing_balance), text).toBe(
    cents(report.opening_balance) + cents(report.net_activity) + sumNet(report.payouts),
  );
  for (const [total, pending, available] of [
    [report.opening_balance, report.opening_pending, report.opening_available],
    [report.closing_balance, report.closing_pending, report.closing_available],
  ] as const)
    expect(cents(pending) + cents(available), text).toBe(cents(total));
  for (const line of [...report.activity, ...report.payouts])
    expect(cents(line.net), JSON.stringify(line)).toBe(cents(line.amount) - cents(line.fee));
  expect(
    report.payouts.every((line) => PAYOUT_TYPES.includes(line.type)),
    text,
  ).toBe(true);
  expect(
    report.activity.some((line) => PAYOUT_TYPES.includes(line.type)),
    text,
  ).toBe(false);
}
