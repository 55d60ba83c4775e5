import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { PaymentStatusBadge } from "@/components/status-badges";
import { getDb } from "@/db/client";
import { PAYMENT_STATUSES } from "@/db/enums";
import { getMerchantProfile } from "@/lib/accounts/merchants";
import { listPayments } from "@/lib/payments/queries";
import { getPaymentStats } from "@/lib/payments/stats";
import { DailyChart } from "./daily-chart";

export const metadata: Metadata = { title: "Overview" };

const card = "rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";

export default async function OverviewPage() {
  const session = await requireMerchantSession();
  const db = getDb();
  const [merchant, stats, recent] = await Promise.all([
    getMerchantProfile(db, session.merchantId),
    getPaymentStats(db, session.merchantId),
    listPayments(db, session.merchantId, 1, 5),
  ]);
  if (!merchant) notFound();
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{merchant.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Merchant {merchant.id} · signed in as {session.email}
        </p>
      </div>
      <dl className="grid gap-4 sm:grid-cols-3">
        {PAYMENT_STATUSES.map((status) => (
          <div key={status} className={card}>
            <dt className="text-sm capitalize text-zinc-500 dark:text-zinc-400">{status}</dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums">
              {stats.byStatus[status].count.toLocaleString("en-US")}
            </dd>
            <dd className="text-sm tabular-nums text-zinc-600 dark:text-zinc-400">
              volume {formatMoney(stats.byStatus[status].volume)}
            </dd>
          </div>
        ))}
      </dl>
      <div className={card}>
        <DailyChart daily={stats.daily} />
      </div>
      <section aria-labelledby="recent-heading" className={card}>
        <div className="mb-3 flex items-center justify-between">
          <h2 id="recent-heading" className="text-base font-semibold">
            Recent payments
          </h2>
          <Link
            href="/dashboard/payments"
            className="text-sm text-indigo-600 hover:underline dark:text-indigo-400"
          >
            All payments →
          </Link>
        </div>
        {recent.items.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No payments yet.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
            {recent.items.map((payment) => (
              <li key={payment.id} className="flex flex-wrap items-center gap-3 py-2">
                <Link
                  href={`/dashboard/payments/${payment.id}`}
                  className="font-mono text-indigo-600 hover:underline dark:text-indigo-400"
                >
                  {payment.id}
                </Link>
                <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
                  {payment.external_id ?? "—"}
                </span>
                <span className="ml-auto tabular-nums">{formatMoney(payment.amount)}</span>
                <PaymentStatusBadge status={payment.status} />
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  <RelativeTime value={payment.created_at} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
