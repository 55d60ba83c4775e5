import type { Payments, ReportOptions } from "@payments-platform/sdk";
import { emit, plural } from "./output.js";

export type ReportFlags = ReportOptions & { json?: boolean };

const periodOf = (report: { from: string; to: string; timezone: string }) =>
  `${report.from} to ${report.to} (${report.timezone} days, to exclusive)`;
const lineText = (line: { type: string; count: number; amount: string; fee: string; net: string }) =>
  `  ${line.type}  ${plural(line.count, "transaction")}  amount ${line.amount}  fee ${line.fee}  net ${line.net}`;

/**
 * `payments reports balance-summary`: the period's opening balance (pending, available), a line per type of
 * activity, the net activity, the payouts, the closing balance; with --json the API's summary as one object.
 */
export async function showBalanceSummary(client: Payments, options: ReportFlags): Promise<void> {
  const summary = await client.reports.balanceSummary(options);
  if (options.json === true) {
    emit(true, { type: "balance_summary", ...summary }, "");
    return;
  }
  const lines = [
    `${summary.currency} balance summary, ${periodOf(summary)}`,
    `Opening balance  ${summary.opening_balance}  (pending ${summary.opening_pending}, available ${summary.opening_available})`,
    ...summary.activity.map(lineText),
    ...(summary.activity.length === 0 ? ["  No activity in this period."] : []),
    `Net activity  ${summary.net_activity}`,
    ...summary.payouts.map(lineText),
    `Closing balance  ${summary.closing_balance}  (pending ${summary.closing_pending}, available ${summary.closing_available})`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * `payments reports payout-reconciliation`: each payout made in the period with its lines by type, then what
 * was not yet paid out at the end; with --json the API's reconciliation as one object.
 */
export async function showPayoutReconciliation(client: Payments, options: ReportFlags): Promise<void> {
  const report = await client.reports.payoutReconciliation(options);
  if (options.json === true) {
    emit(true, { type: "payout_reconciliation", ...report }, "");
    return;
  }
  const lines = [
    `${report.currency} payout reconciliation, ${periodOf(report)}`,
    ...(report.payouts.length === 0 ? ["No payout was made in this period."] : []),
    ...report.payouts.flatMap((payout) => [
      `Payout ${payout.id}  ${payout.amount}  ${payout.status}  created ${payout.created_at}  arrives ${payout.arrival_date}`,
      ...payout.lines.map(lineText),
    ]),
    `Not yet paid out at the end  ${report.unpaid_total}`,
    ...report.unpaid.map(lineText),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
