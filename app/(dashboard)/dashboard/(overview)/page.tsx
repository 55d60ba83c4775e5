import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { PaymentStatusBadge } from "@/components/status-badges";
import { SwitchLinks } from "@/components/switch-links";
import { getDb } from "@/db/client";
import { PAYMENT_STATUSES } from "@/db/enums";
import { readFor } from "@/db/replicas";
import { getMerchantProfile, getOnboardingProgress } from "@/lib/accounts/merchants";
import { can } from "@/lib/accounts/permissions";
import { getBalance } from "@/lib/ledger/balance";
import {
  OVERVIEW_RANGES,
  overviewRangeLabel,
  readOverviewRange,
  type OverviewRange,
} from "@/lib/payments/filters";
import { listPayments } from "@/lib/payments/queries";
import { getPaymentStats, overviewCurrency, usedCurrencies } from "@/lib/payments/stats";
import { payoutOutlook } from "@/lib/payouts/queries";
import { getEnv } from "@/lib/platform/env";
import { rateLimitNotice } from "@/lib/tokens/rate-limited";
import { dismissRateLimit } from "./actions";
import { DailyChart } from "./daily-chart";
import { GetStarted } from "./get-started";
import { OverviewBalance } from "./overview-balance";

export const metadata: Metadata = { title: "Overview" };

const card = "rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requireMerchantSession();
  const params = await searchParams;
  const range = readOverviewRange(params);
  const db = getDb();
  // The Overview's aggregates and recent list tolerate lag: a read replica serves them when one has this
  // merchant's writes.
  const [merchant, [used, recent, balance, outlook], progress, limited] = await Promise.all([
    getMerchantProfile(db, session.merchantId),
    readFor(session.merchantId, (replica) =>
      Promise.all([
        usedCurrencies(replica, session.merchantId),
        listPayments(replica, session.merchantId, 1, 5),
        getBalance(replica, session.merchantId),
        payoutOutlook(replica, session.merchantId),
      ]),
    ),
    getOnboardingProgress(db, session.merchantId),
    rateLimitNotice(db, session.merchantId, getEnv().API_RATE_LIMIT_PER_MINUTE),
  ]);
  if (!merchant) notFound();
  // Every figure below is in one currency: the default, or the one the switch chose.
  const { currency, choices } = overviewCurrency(params.currency, used, merchant.defaultCurrency);
  const stats = await readFor(session.merchantId, (replica) =>
    getPaymentStats(replica, session.merchantId, currency, range),
  );
  const hrefFor = (next: { range?: OverviewRange; currency?: string }) => {
    const query = new URLSearchParams();
    const chosenRange = next.range ?? range;
    const chosenCurrency = next.currency ?? currency;
    if (chosenRange !== 30) query.set("range", String(chosenRange));
    if (chosenCurrency !== merchant.defaultCurrency) query.set("currency", chosenCurrency);
    return query.size ? `/dashboard?${query}` : "/dashboard";
  };
  const perMinute = merchant.rateLimitPerMinute ?? getEnv().API_RATE_LIMIT_PER_MINUTE;
  return (
    <div className="max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{merchant.name}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Merchant {merchant.id} · signed in as {session.email}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          {choices.length > 1 ? (
            <SwitchLinks
              label="Currency"
              options={choices.map((option) => ({
                key: option,
                text: option,
                href: hrefFor({ currency: option }),
                current: option === currency,
              }))}
            />
          ) : null}
          <SwitchLinks
            label="Range"
            options={OVERVIEW_RANGES.map((option) => ({
              key: String(option),
              text: option === "all" ? "All time" : `${option} days`,
              href: hrefFor({ range: option }),
              current: option === range,
            }))}
          />
        </div>
      </div>
      <OverviewBalance balance={balance} outlook={outlook} />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {range === "all"
          ? `Every payment and refund so far, in ${currency}.`
          : `Payments created and refunds succeeded in the last ${range} days, today included (UTC), in ${currency}.`}
        {choices.length > 1 ? " Other currencies are never added in: switch to see them." : ""}
      </p>
      <dl className="grid gap-4 sm:grid-cols-3" aria-label="Payments by status">
        {PAYMENT_STATUSES.map((status) => (
          <div key={status} className={card}>
            <dt className="text-sm capitalize text-zinc-500 dark:text-zinc-400">{status}</dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums">
              {stats.byStatus[status].count.toLocaleString("en-US")}
            </dd>
            <dd className="text-sm tabular-nums text-zinc-600 dark:text-zinc-400">
              volume {formatMoney(stats.byStatus[status].volume, currency)}
            </dd>
          </div>
        ))}
      </dl>
      <dl className={`${card} flex flex-wrap gap-x-10 gap-y-3`} aria-label="Volume">
        {(
          [
            ["Gross volume", stats.volume.gross, "completed payments"],
            [
              "Refunded",
              stats.volume.refunded,
              `${stats.volume.refunds.toLocaleString("en-US")} succeeded refund${stats.volume.refunds === 1 ? "" : "s"}`,
            ],
            ["Disputed", stats.volume.disputed, "taken back, not reinstated"],
            ["Net volume", stats.volume.net, "gross less refunds and disputes"],
            ["Payment fees", stats.volume.paymentFees, "on completed payments"],
            ["Dispute fees", stats.volume.disputeFees, "kept apart, as fees"],
          ] as const
        ).map(([label, amount, note]) => (
          <div key={label}>
            <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
            <dd className="mt-1 text-xl font-semibold tabular-nums">{formatMoney(amount, currency)}</dd>
            <dd className="text-xs text-zinc-600 dark:text-zinc-400">{note}</dd>
          </div>
        ))}
      </dl>
      {limited ? (
        <section
          aria-labelledby="rate-limited-heading"
          className="flex flex-wrap items-start justify-between gap-3 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-900"
        >
          <div className="min-w-0 flex-1 basis-64">
            <h2 id="rate-limited-heading" className="font-semibold">
              A key hit its rate limit
            </h2>
            <p className="mt-1">
              Your key “{limited.name}” (<span className="font-mono">{limited.displayHint}</span>) is being
              answered 429 Too Many Attempts: the first came <RelativeTime value={limited.limitedSince} />.
              Each key may send {perMinute.toLocaleString("en-US")} requests a minute. This notice goes once
              the limit is raised, or after 24 hours without a 429.{" "}
              <Link href="/dashboard/developers#rate-limits" className="font-medium underline">
                How to raise it
              </Link>
            </p>
          </div>
          {can(session.role, "api_keys:write") ? (
            <ActionForm
              action={dismissRateLimit}
              fields={{ token_id: limited.tokenId }}
              submitLabel="Dismiss"
              variant="ghost"
            />
          ) : null}
        </section>
      ) : null}
      <GetStarted progress={progress} />
      <div className={card}>
        <DailyChart
          series={stats.series}
          bucket={stats.bucket}
          rangeLabel={overviewRangeLabel(range)}
          currency={currency}
        />
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
              // Two lines on a phone (what and how much; status and when), one from 640 px.
              <li
                key={payment.id}
                className="grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 py-2 sm:flex sm:gap-3"
              >
                <span className="flex min-w-0 items-center gap-3">
                  <Link
                    href={`/dashboard/payments/${payment.id}`}
                    className="font-mono text-indigo-600 hover:underline dark:text-indigo-400"
                  >
                    {payment.id}
                  </Link>
                  <span className="truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    {payment.external_id ?? "—"}
                  </span>
                </span>
                <span className="text-right tabular-nums sm:ml-auto">
                  {formatMoney(payment.amount, payment.currency)}
                </span>
                <span>
                  <PaymentStatusBadge status={payment.status} />
                </span>
                <span className="text-right text-xs text-zinc-600 dark:text-zinc-400">
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
