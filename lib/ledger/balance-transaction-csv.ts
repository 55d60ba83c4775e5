import type { BalanceTransaction } from "./balance-transactions";

// A balance transaction as a CSV line, for every CSV of them (a payout's reconciliation, the All transactions
// export): the API's fields in the API's order, so each line names its order and customer (DESIGN.md, "Reports").

export const BALANCE_TRANSACTION_CSV_HEADER = [
  "id",
  "type",
  "source_id",
  "payment_id",
  "external_id",
  "customer_id",
  "currency",
  "amount",
  "fee",
  "net",
  "status",
  "available_on",
  "payout_id",
  "created_at",
] as const;

export function balanceTransactionCsvFields(move: BalanceTransaction) {
  return [
    move.id,
    move.type,
    move.source_id,
    move.payment_id,
    move.external_id,
    move.customer_id,
    move.currency,
    move.amount,
    move.fee,
    move.net,
    move.status,
    move.available_on,
    move.payout_id,
    move.created_at,
  ];
}
