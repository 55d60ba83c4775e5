import { memberForRoute } from "@/app/_lib/session";
import { readDbFor } from "@/db/replicas";
import { merchantReportDefaults } from "@/lib/accounts/merchants";
import { payoutReconciliation } from "@/lib/ledger/payout-reconciliation";
import { readReportChoice } from "@/lib/ledger/report-period";
import { csvResponse } from "@/lib/platform/csv";
import { reconciliationCsvRows } from "../reconciliation-rows";

/** The Payout reconciliation tab as CSV: the same period, currency and time zone as the tab and the API. */
export async function GET(request: Request): Promise<Response> {
  const member = await memberForRoute();
  if (!member) return new Response("Log in to export a report.", { status: 401 });
  const { merchantId } = member;
  const db = await readDbFor(merchantId);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const defaults = await merchantReportDefaults(db, merchantId);
  const timeZone = defaults.reportTimezone;
  const { choice } = readReportChoice(params, defaults.defaultCurrency, timeZone);
  const { currency, period } = choice;
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
