import { memberForRoute } from "@/app/_lib/session";
import { getDb } from "@/db/client";
import { readDbFor } from "@/db/replicas";
import { environmentStillExists } from "@/lib/environments/environments";
import {
  BALANCE_TRANSACTION_CSV_HEADER,
  balanceTransactionCsvFields,
} from "@/lib/ledger/balance-transaction-csv";
import { exportPayoutTransactions } from "@/lib/ledger/balance-transactions";
import { findPayout } from "@/lib/payouts/payouts";
import { csvResponse } from "@/lib/platform/csv";
import { idParam } from "@/lib/platform/validation";

/** A payout's reconciliation: the balance transactions it carried, whose net adds up to its amount. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const member = await memberForRoute();
  if (!member) return new Response("Log in to export a payout.", { status: 401 });
  const payoutId = idParam.safeParse((await params).id);
  // Another merchant's payout is not found, as an unknown one is.
  const db = await readDbFor(member.merchantId);
  const payout = payoutId.success ? await findPayout(db, member.merchantId, payoutId.data) : undefined;
  if (!payout) return new Response("Not Found", { status: 404 });
  return csvResponse({
    header: BALANCE_TRANSACTION_CSV_HEADER,
    batches: exportPayoutTransactions(db, member.merchantId, payout.id),
    toFields: balanceTransactionCsvFields,
    filename: `payout-${payout.id}.csv`,
    // A sandbox deleted while this streams cuts the download off (on the primary, where deletion happens).
    stillThere: environmentStillExists(getDb(), member.merchantId),
  });
}
