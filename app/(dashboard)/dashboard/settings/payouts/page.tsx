import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { Link } from "@/components/link";
import { LocalTime } from "@/components/relative-time";
import { SelectField } from "@/components/ui/select-field";
import { BackLink } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { getPayoutAccount, payoutsHeld } from "@/lib/payouts/account";
import { payoutOutlook } from "@/lib/payouts/queries";
import { savePayoutSchedule } from "./actions";
import { PayoutAccountForm } from "./payout-account-form";
import { PayoutAccountWarning } from "../../balance/payout-account-warning";

export const metadata: Metadata = { title: "Payout settings" };

const SCHEDULES = [
  { value: "daily", label: "Daily: all that is available, at 00:00 UTC" },
  { value: "weekly", label: "Weekly: on Mondays, at 00:00 UTC" },
  { value: "manual", label: "Manual: only when you pay out" },
];
const section =
  "space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";
const muted = "text-sm text-zinc-600 dark:text-zinc-400";

/** Settings → Payouts: where payouts go, and when they are made. */
export default async function PayoutSettingsPage() {
  const { merchantId, role } = await requireMerchantSession();
  const db = getDb();
  const [account, outlook] = await Promise.all([
    getPayoutAccount(db, merchantId),
    payoutOutlook(db, merchantId),
  ]);
  const owner = can(role, "payout_account:write");
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <BackLink href="/dashboard/settings">Settings</BackLink>
        <h1 className="mt-2 text-2xl font-semibold">Payouts</h1>
        <p className={`mt-1 ${muted}`}>
          Where your available balance is sent, and when.{" "}
          <Link href="/dashboard/payouts" className="text-indigo-700 underline dark:text-indigo-300">
            Your payouts
          </Link>
        </p>
      </div>
      <section aria-labelledby="account-heading" className={section}>
        <h2 id="account-heading" className="text-base font-semibold">
          Bank account
        </h2>
        <PayoutAccountWarning account={outlook.account} settingsLink={false} />
        <p className={muted} data-testid="payout-account">
          {account
            ? `${account.account_holder}, IBAN ending ${account.iban_last4}. The full IBAN is stored encrypted and never shown again.`
            : "No bank account yet: payouts wait until you add one."}
        </p>
        {account && payoutsHeld(account) ? (
          <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="payout-hold">
            The account was replaced lately: payouts to it start at{" "}
            <LocalTime value={account.payouts_start_at!} />.
          </p>
        ) : null}
        {owner ? (
          <PayoutAccountForm accountHolder={account?.account_holder} />
        ) : (
          <p className="text-sm">Only an owner can change it.</p>
        )}
      </section>
      <section aria-labelledby="schedule-heading" className={section}>
        <h2 id="schedule-heading" className="text-base font-semibold">
          Schedule
        </h2>
        <p className={muted}>
          Each scheduled payout takes all that is available in each currency. Whatever the schedule, an owner
          can pay out by hand on the Payouts page.
        </p>
        {owner ? (
          <ActionForm action={savePayoutSchedule} fields={{}} submitLabel="Save schedule" variant="primary">
            <div className="w-96 max-w-full">
              <SelectField
                label="Payout schedule"
                name="payout_schedule"
                defaultValue={outlook.schedule}
                options={SCHEDULES}
              />
            </div>
          </ActionForm>
        ) : (
          <p className="text-sm">Current: {outlook.schedule}. Only an owner can change it.</p>
        )}
      </section>
    </div>
  );
}
