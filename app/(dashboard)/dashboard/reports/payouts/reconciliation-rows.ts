import type { PayoutReconciliation, ReconciliationLine } from "@/lib/ledger/payout-reconciliation";

/** The lines' names, in the dashboard and nowhere else (the API and CSV keep the types). */
export const LINE_LABELS: Record<ReconciliationLine["type"], string> = {
  payment: "Payments",
  refund: "Refunds",
  refund_failure: "Refunds failed",
  dispute: "Disputes",
  dispute_won: "Disputes won",
  payout: "Payouts",
  payout_failure: "Payouts returned",
  adjustment: "Adjustments",
  carried_forward: "Carried forward to the next payout",
  brought_forward: "Brought forward from a payout of part",
  itemized_later: "Paid before itemized (a payout of part)",
};

/** One CSV row of the reconciliation: a payout's line, or an unpaid one (no payout). */
export type ReconciliationCsvRow = {
  section: "payout" | "unpaid";
  payout: PayoutReconciliation["payouts"][number] | null;
  line: ReconciliationLine;
};

/** The reconciliation as CSV rows: every payout's lines, oldest payout first, then the unpaid lines. */
export function reconciliationCsvRows(reconciliation: PayoutReconciliation): ReconciliationCsvRow[] {
  return [
    ...reconciliation.payouts.flatMap((payout) =>
      payout.lines.map((line) => ({ section: "payout" as const, payout, line })),
    ),
    ...reconciliation.unpaid.map((line) => ({ section: "unpaid" as const, payout: null, line })),
  ];
}
