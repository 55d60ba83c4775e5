import { payoutReconciliation } from "@/lib/ledger/payout-reconciliation";
import { csvResponse } from "@/lib/platform/csv";
import { reportExportContext } from "../../report-context";
import { reconciliationCsvRows } from "../reconciliation-rows";

/** The Payout reconciliation tab as CSV: the same period, currency and time zone as the tab and the API. */
export async function GET(request: Request): Promise<Response> {
  const report = await reportExportContext(request);
  if (!report) return new Response("Log in to export a report.", { status: 401 });
  const { db, merchantId, timeZone, currency, period } = report;
  async function* rows() {
    yield reconciliationCsvRows(await payoutReconciliation(db, merchantId, currency, period, timeZone));
  }
  return csvResponse({
    header: [
      "currency",
      "timezone",
      "section",
      "payout_id",
      "payout_status",
      "payout_amount",
      "payout_created_at",
      "arrival_date",
      "type",
      "count",
      "amount",
      "fee",
      "net",
    ],
    batches: rows(),
    toFields: ({ section, payout, line }) => [
      currency,
      timeZone,
      section,
      payout?.id ?? null,
      payout?.status ?? null,
      payout?.amount ?? null,
      payout?.created_at ?? null,
      payout?.arrival_date ?? null,
      line.type,
      line.count,
      line.amount,
      line.fee,
      line.net,
    ],
    filename: `payout-reconciliation-${period.from}_${period.to}-${currency.toLowerCase()}.csv`,
  });
}
