import "server-only";
import { memberForRoute } from "@/app/_lib/session";
import { readDbFor, readFor } from "@/db/replicas";
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

/**
 * What a Reports CSV reads first: the member (null: not logged in, or removed), the database it streams from
 * (chosen once: a stream cannot move halfway), and the same choice as the tab's page.
 */
export async function reportExportContext(request: Request) {
  const member = await memberForRoute();
  if (!member) return null;
  const { merchantId } = member;
  const db = await readDbFor(merchantId);
  const defaults = await merchantReportDefaults(db, merchantId);
  const timeZone = defaults.reportTimezone;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const { choice } = readReportChoice(params, defaults.defaultCurrency, timeZone);
  return { db, merchantId, timeZone, currency: choice.currency, period: choice.period };
}
