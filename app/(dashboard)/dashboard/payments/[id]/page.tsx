import type { Metadata } from "next";
import { getDisplayCurrency } from "@/app/_lib/display-currency";
import { formatMoney } from "@/components/format";
import { JsonViewer } from "@/components/json-viewer";
import { LiveRefresh } from "@/components/live-refresh";
import { RelativeTime } from "@/components/relative-time";
import { DeliveryStatusBadge, PaymentStatusBadge } from "@/components/status-badges";
import { CopyButton } from "@/components/ui/copy-button";
import { BackLink } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { getPaymentTimeline } from "@/lib/payments/timeline";
import { loadPayment } from "./load-payment";
import { SettleButtons } from "./settle-buttons";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { record: payment } = await loadPayment(params);
  return { title: `Payment ${payment.id}` };
}

export default async function PaymentPage({ params }: Props) {
  const { merchantId, role, record: payment } = await loadPayment(params);
  const [timeline, currency] = await Promise.all([
    getPaymentTimeline(getDb(), merchantId, payment.id),
    getDisplayCurrency(merchantId),
  ]);
  const fields: Array<[string, React.ReactNode]> = [
    [
      "ID",
      <span key="id" className="flex items-center gap-2">
        <span className="font-mono">{payment.id}</span>
        <CopyButton value={String(payment.id)} label="Copy ID" />
      </span>,
    ],
    [
      "External ID",
      payment.external_id ? (
        <span key="ext" className="flex items-center gap-2">
          <span className="font-mono">{payment.external_id}</span>
          <CopyButton value={payment.external_id} label="Copy external ID" />
        </span>
      ) : (
        "—"
      ),
    ],
    ["Customer ID", payment.customerId ?? "—"],
    ["Type", payment.type],
    [
      "Amount",
      <span key="amount" className="tabular-nums">
        {formatMoney(payment.amount, currency)}
      </span>,
    ],
    ["Status", <PaymentStatusBadge key="status" status={payment.status} />],
    [
      "Metadata",
      <code key="meta" className="break-all font-mono text-xs">
        {payment.metadata ?? "null"}
      </code>,
    ],
    ["Created", <RelativeTime key="created" value={payment.created_at} />],
    ["Settled", payment.settledAt ? <RelativeTime key="settled" value={payment.settledAt} /> : "—"],
    ...(payment.failureReason ? [["Why it failed", payment.failureReason] as [string, React.ReactNode]] : []),
    ["Source", payment.source],
  ];
  const pendingWork =
    payment.status === "pending" ||
    timeline.some((event) => event.deliveries.some((delivery) => delivery.status === "pending"));
  return (
    <div className="max-w-4xl space-y-6">
      <LiveRefresh active={pendingWork} />
      <div>
        <BackLink href="/dashboard/payments">Payments</BackLink>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">Payment {payment.id}</h1>
          <PaymentStatusBadge status={payment.status} />
        </div>
      </div>
      {can(role, "payments:write") ? (
        <SettleButtons paymentId={payment.id} pending={payment.status === "pending"} />
      ) : null}
      <dl className="grid gap-x-6 gap-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 sm:grid-cols-2 dark:bg-zinc-900 dark:ring-zinc-800">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="mt-1 text-sm">{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="timeline-heading" className="space-y-3">
        <h2 id="timeline-heading" className="text-base font-semibold">
          Events
        </h2>
        <ol className="space-y-3 border-l border-zinc-200 pl-4 dark:border-zinc-800">
          {timeline.map((event) => (
            <li key={event.id} id={event.id} data-testid="timeline-event" className="space-y-1">
              <p className="text-sm">
                <span className="font-medium">{event.type}</span>{" "}
                <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{event.id}</span>{" "}
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  <RelativeTime value={event.createdAt} />
                </span>
              </p>
              <JsonViewer body={event.body} summary="Event body" />
              {event.deliveries.length === 0 ? (
                <p className="text-xs text-zinc-600 dark:text-zinc-400">No webhook endpoint subscribed.</p>
              ) : (
                <ul className="space-y-1 text-xs">
                  {event.deliveries.map((delivery) => (
                    <li key={delivery.id} className="flex flex-wrap items-center gap-2">
                      <DeliveryStatusBadge status={delivery.status} />
                      <span className="break-all">{delivery.endpointUrl}</span>
                      <span className="text-zinc-600 dark:text-zinc-400">
                        {delivery.attempts
                          .map(
                            (attempt) =>
                              `${attempt.responseStatus ?? attempt.error ?? "no answer"} in ${attempt.latencyMs} ms`,
                          )
                          .join(" → ") || "not attempted yet"}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
