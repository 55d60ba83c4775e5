import { Link } from "@/components/link";
import { Alert } from "@/components/ui/alert";
import type { PayoutOutlook } from "@/lib/payouts/queries";

/**
 * A payout failed on the account (closed): nothing is paid out until another is saved, so the Balance, the
 * Payouts page and Settings → Payouts all say so (DESIGN.md, "A payout account that failed").
 */
export function PayoutAccountWarning({
  account,
  settingsLink = true,
}: {
  account: PayoutOutlook["account"];
  settingsLink?: boolean;
}) {
  if (!account?.errored) return null;
  return (
    <Alert tone="warning">
      <strong className="font-semibold">Replace your bank account.</strong> A payout to the account ending{" "}
      {account.last4} failed: {account.failureReason ?? "the bank refused it."} Payouts are paused until you
      save another account
      {settingsLink ? (
        <>
          {" "}
          in{" "}
          <Link href="/dashboard/settings/payouts" className="underline">
            Settings → Payouts
          </Link>
        </>
      ) : null}
      .
    </Alert>
  );
}
