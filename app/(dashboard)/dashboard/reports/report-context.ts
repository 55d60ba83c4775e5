import "server-only";
import { readFor } from "@/db/replicas";
import { merchantReportDefaults } from "@/lib/accounts/merchants";
import { getBalance } from "@/lib/ledger/balance";
import { readReportChoice } from "@/lib/ledger/report-period";

type SearchParams = Record<string, string | string[] | undefined>;

/** What every Reports tab reads first: the merchant's report defaults, its currencies and the chosen period. */
export async function reportContext(merchantId: number, params: SearchParams) {
  const [defaults, balance] = await readFor(merchantId, (db) =>
    Promise.all([merchantReportDefaults(db, merchantId), getBalance(db, merchantId)]),
  );
  const timeZone = defaults.reportTimezone;
  const { choice, errors } = readReportChoice(params, defaults.defaultCurrency, timeZone);
  const currencies = [
    ...new Set([defaults.defaultCurrency, ...balance.available.map((entry) => entry.currency)]),
  ];
  return { choice, errors, currencies, timeZone };
}

/** A day as the reports title it: "November 1, 2026". */
export const longDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
