import { memberForRoute } from "@/app/_lib/session";
import { getDb } from "@/db/client";
import { readDbFor } from "@/db/replicas";
import { environmentStillExists } from "@/lib/environments/environments";
import {
  BALANCE_TRANSACTION_CSV_HEADER,
  balanceTransactionCsvFields,
} from "@/lib/ledger/balance-transaction-csv";
import { exportBalanceTransactions } from "@/lib/ledger/balance-transactions";
import {
  readTransactionFilters,
  toBalanceTransactionFilter,
  transactionsCsvName,
} from "@/lib/ledger/transaction-filters";
import { csvResponse } from "@/lib/platform/csv";

/** Streams every balance transaction the All transactions filters match, newest first, as CSV. */
export async function GET(request: Request): Promise<Response> {
  // Checked against the database, as every page is: a removed member's session exports nothing.
  const member = await memberForRoute();
  if (!member) return new Response("Log in to export balance transactions.", { status: 401 });
  const { merchantId, environment } = member;
  const { filters } = readTransactionFilters(Object.fromEntries(new URL(request.url).searchParams));
  const db = await readDbFor(merchantId);
  return csvResponse({
    header: BALANCE_TRANSACTION_CSV_HEADER,
    // Streamed, so it cannot be run again elsewhere halfway: the replica (or primary) is chosen once.
    batches: exportBalanceTransactions(
      db,
      merchantId,
      toBalanceTransactionFilter(filters, environment.reportTimezone),
    ),
    toFields: balanceTransactionCsvFields,
    filename: transactionsCsvName(filters),
    // A sandbox deleted while this streams cuts the download off (on the primary, where deletion happens).
    stillThere: environmentStillExists(getDb(), merchantId),
  });
}
