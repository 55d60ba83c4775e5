import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { SelectField } from "@/components/ui/select-field";
import { getDb } from "@/db/client";
import { getMerchantProfile } from "@/lib/accounts/merchants";
import { can } from "@/lib/accounts/permissions";
import { CURRENCY_CODES } from "@/lib/money/currencies";
import { timeZoneChoices } from "@/lib/platform/time-zones";
import { saveDefaultCurrency, saveReportTimezone } from "../actions";

export const metadata: Metadata = { title: "Settings" };

const currencyNames = new Intl.DisplayNames("en", { type: "currency" });

export default async function SettingsPage() {
  const { merchantId, role } = await requireMerchantSession();
  const merchant = await getMerchantProfile(getDb(), merchantId);
  if (!merchant) notFound();
  const options = CURRENCY_CODES.map((code) => ({
    value: code,
    label: `${code} · ${currencyNames.of(code)}`,
  }));
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Settings</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {merchant.name} · merchant {merchant.id} ·{" "}
          <Link
            href="/dashboard/settings/security"
            className="text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Security: two-factor sign-in and password
          </Link>{" "}
          ·{" "}
          <Link
            href="/dashboard/settings/payouts"
            className="text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Payouts: bank account and schedule
          </Link>{" "}
          ·{" "}
          <Link
            href="/dashboard/settings/processor"
            className="text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Processor: Mollie or Stripe
          </Link>{" "}
          ·{" "}
          <Link
            href="/dashboard/settings/sandboxes"
            className="text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Sandboxes
          </Link>
          {can(role, "security_history:read") ? (
            <>
              {" "}
              ·{" "}
              <Link
                href="/dashboard/settings/security-history"
                className="text-indigo-600 hover:underline dark:text-indigo-400"
              >
                Security history
              </Link>
            </>
          ) : null}
        </p>
      </div>
      <section
        aria-labelledby="currency-heading"
        className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <h2 id="currency-heading" className="text-base font-semibold">
          Default currency
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The currency of a payment or payment link created without one, in the API and here, and the one the
          Overview opens in. Every payment keeps the currency it was made in: changing this changes no amount.
          Now {formatMoney("1250.00", merchant.defaultCurrency)} reads as a payment of 1,250{" "}
          {currencyNames.of(merchant.defaultCurrency)}.
        </p>
        {can(role, "settings:write") ? (
          <ActionForm action={saveDefaultCurrency} fields={{}} submitLabel="Save" variant="primary">
            <div className="w-72 max-w-full">
              <SelectField
                label="Default currency (ISO 4217)"
                name="default_currency"
                defaultValue={merchant.defaultCurrency}
                options={options}
              />
            </div>
          </ActionForm>
        ) : (
          <p className="text-sm">Current: {merchant.defaultCurrency}. Only an owner can change it.</p>
        )}
      </section>
      <section
        aria-labelledby="timezone-heading"
        className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <h2 id="timezone-heading" className="text-base font-semibold">
          Report time zone
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Where the days of your reports, their CSVs and the date filters start and end. In Europe/Berlin,
          November starts at 23:00 UTC on 31 October. The API takes <code>timezone</code> to ask for another.
        </p>
        {can(role, "settings:write") ? (
          <ActionForm
            action={saveReportTimezone}
            fields={{}}
            submitLabel="Use this time zone"
            variant="primary"
          >
            <div className="w-72 max-w-full">
              <SelectField
                label="Report time zone (IANA)"
                name="report_timezone"
                defaultValue={merchant.reportTimezone}
                options={timeZoneChoices(merchant.reportTimezone).map((zone) => ({
                  value: zone,
                  label: zone,
                }))}
              />
            </div>
          </ActionForm>
        ) : (
          <p className="text-sm">Current: {merchant.reportTimezone}. Only an owner can change it.</p>
        )}
      </section>
    </div>
  );
}
