import type { Payments } from "@payments-platform/sdk";
import { emit, plural } from "./output.js";

/**
 * `payments reports balance-summary`: the period's opening balance, a line per type of balance transaction
 * (count, amount, fee, net) and the closing balance; with --json the API's summary as one object.
 */
export async function showBalanceSummary(
  client: Payments,
  options: { currency?: string; from?: string; to?: string; json?: boolean },
): Promise<void> {
  const summary = await client.reports.balanceSummary(options);
  if (options.json === true) {
    emit(true, { type: "balance_summary", ...summary }, "");
    return;
  }
  const lines = [
    `${summary.currency} balance summary, ${summary.from} to ${summary.to} (UTC, to exclusive)`,
    `Opening balance  ${summary.opening_balance}`,
    ...summary.activity.map(
      (line) =>
        `  ${line.type}  ${plural(line.count, "transaction")}  amount ${line.amount}  fee ${line.fee}  net ${line.net}`,
    ),
    ...(summary.activity.length === 0 ? ["  No activity in this period."] : []),
    `Closing balance  ${summary.closing_balance}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
