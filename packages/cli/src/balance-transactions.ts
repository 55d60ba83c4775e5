import {
  PaymentsApiError,
  type BalanceTransaction,
  type BalanceTransactionFilters,
  type Payments,
} from "@payments-platform/sdk";
import { type ListWindow, printEach, take } from "./lists.js";
import { CliError, emit, EXIT, timestamp } from "./output.js";

/** A payout's id as the dashboard and the API show it, `12`, or with the `po_` prefix some tools add. */
export function parsePayoutId(value: string): number {
  const digits = /^(?:po_)?([1-9]\d{0,17})$/.exec(value)?.[1];
  if (!digits) throw new CliError(`Expected a payout id (12 or po_12), got ${value}.`, EXIT.usage);
  return Number(digits);
}

/** One line: when, id, type, net with its currency, amount and fee, status, the order it concerns, its payout. */
function transactionLine(move: BalanceTransaction): string {
  return [
    timestamp(move.created_at),
    String(move.id),
    move.type.padEnd(14),
    `${move.net} ${move.currency}`,
    `(amount ${move.amount}, fee ${move.fee})`,
    move.status.padEnd(9),
    move.external_id === null ? "" : `order ${move.external_id}`,
    move.payout_id === null ? "" : `payout ${move.payout_id}`,
  ]
    .join("  ")
    .trimEnd();
}

/** `payments balance-transactions list`: newest first, by payout, type and currency; one line each. */
export async function listBalanceTransactions(
  client: Payments,
  options: ListWindow & { payout?: number; type?: BalanceTransaction["type"]; currency?: string },
): Promise<void> {
  const filters: BalanceTransactionFilters = {
    // The API refuses an unknown type or currency (422, which the CLI prints).
    type: options.type,
    currency: options.currency,
    payoutId: options.payout,
  };
  const moves = await take(
    client.balanceTransactions.list({
      ...filters,
      page: options.page,
      perPage: Math.min(options.limit, 100),
    }),
    options.limit,
  );
  printEach(
    moves,
    { json: options.json, type: "balance_transaction", none: "No balance transactions." },
    transactionLine,
  );
}

/** Decimal strings of one currency added exactly (no float): "1.10" + "-0.25" = "0.85". */
function addAmounts(amounts: string[]): string {
  const decimals = Math.max(0, ...amounts.map((amount) => amount.split(".")[1]?.length ?? 0));
  const minor = amounts.reduce((sum, amount) => {
    const [whole, fraction = ""] = amount.replace("-", "").split(".");
    const value = BigInt(`${whole}${fraction.padEnd(decimals, "0")}`);
    return sum + (amount.startsWith("-") ? -value : value);
  }, 0n);
  const digits = (minor < 0n ? -minor : minor).toString().padStart(decimals + 1, "0");
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return minor < 0n ? `-${text}` : text;
}

/**
 * `payments payouts show ID`: the payout (status, amount, arrival, account, why it failed) and every balance
 * transaction it carried, then their sum, which is its amount; with --json the payout, then each transaction
 * as the API has it. A failed or canceled payout arrives nowhere: no arrival date. An unknown id says so.
 */
export async function showPayout(client: Payments, id: number, options: { json?: boolean }): Promise<void> {
  const payout = await client.payouts.retrieve(id).catch((error: unknown) => {
    if (error instanceof PaymentsApiError && error.status === 404)
      throw new CliError(`No payout ${id} exists on this account.`, EXIT.refused);
    throw error;
  });
  const json = options.json === true;
  const ended = payout.status === "failed" || payout.status === "canceled";
  emit(
    json,
    { type: "payout", ...payout },
    [
      `Payout ${payout.id}  ${payout.status}  ${payout.amount} ${payout.currency}`,
      `Created ${timestamp(payout.created_at)}${ended ? "" : `, arrives ${payout.arrival_date}`}, to ••••${payout.destination_last4}`,
      ...(payout.failure_reason ? [`Failed: ${payout.failure_reason}`] : []),
      "Transactions it carried:",
    ].join("\n"),
  );
  const nets: string[] = [];
  for await (const move of client.balanceTransactions.list({ payoutId: payout.id, perPage: 100 })) {
    nets.push(move.net);
    // As the API has it: its own `type` (payment, refund, …) says what it is.
    emit(json, move, `  ${transactionLine(move)}`);
  }
  if (json) return;
  if (nets.length === 0) emit(false, {}, "  None.");
  else
    emit(
      false,
      {},
      `  Total: ${addAmounts(nets)} ${payout.currency} in ${nets.length} transaction${nets.length === 1 ? "" : "s"}`,
    );
}
