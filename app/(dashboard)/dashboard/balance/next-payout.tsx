import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import type { PayoutOutlook } from "@/lib/payouts/queries";

// Links inside sentences: underlined, so they do not rely on colour alone.
const linkClass = "text-indigo-700 underline dark:text-indigo-300";

/** The next scheduled run's UTC date: tomorrow (daily), or the next Monday (weekly). */
function nextRunDate(schedule: "daily" | "weekly", now = new Date()): string {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  if (schedule === "weekly") next.setUTCDate(next.getUTCDate() + ((8 - next.getUTCDay()) % 7));
  return next.toISOString().slice(0, 10);
}

/** What the merchant gets next: the payouts on their way, or when the schedule makes the next one. */
export function NextPayout({ outlook }: { outlook: PayoutOutlook }) {
  if (outlook.moving.length > 0)
    return (
      <ul className="space-y-1 text-sm">
        {outlook.moving.map((payout) => (
          <li key={payout.id}>
            <Link
              href={`/dashboard/payouts/${payout.id}`}
              className={`font-medium tabular-nums ${linkClass}`}
            >
              {formatMoney(payout.amount, payout.currency)}
            </Link>{" "}
            {payout.status === "in_transit" ? "in transit" : "pending"}, arriving by {payout.arrival_date}
          </li>
        ))}
      </ul>
    );
  if (!outlook.hasAccount)
    return (
      <p className="text-sm">
        No payouts until you add a bank account in{" "}
        <Link href="/dashboard/settings/payouts" className={linkClass}>
          Settings → Payouts
        </Link>
        .
      </p>
    );
  if (outlook.schedule === "manual")
    return (
      <p className="text-sm">
        Payouts are manual: pay out from the{" "}
        <Link href="/dashboard/payouts" className={linkClass}>
          Payouts
        </Link>{" "}
        page.
      </p>
    );
  return (
    <p className="text-sm">
      The next scheduled payout is made on {nextRunDate(outlook.schedule)} at 00:00 UTC, of all that is
      available then.
    </p>
  );
}
