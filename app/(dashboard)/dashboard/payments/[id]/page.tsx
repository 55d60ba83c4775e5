import type { Metadata } from "next";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { LiveUpdates } from "@/components/live-refresh";
import { RelativeTime } from "@/components/relative-time";
import { PaymentStatusWithRefunds } from "@/components/status-badges";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldGrid } from "@/components/ui/field-grid";
import { BackLink } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { checkoutRefusals } from "@/lib/checkout/card-testing";
import { cardLabel } from "@/lib/checkout/test-cards";
import { disputeOfPayment } from "@/lib/disputes/queries";
import { liveVersion } from "@/lib/events/live-version";
import { getPaymentTimeline } from "@/lib/events/payment-timeline";
import { metadataEntries } from "@/lib/payments/metadata";
import { getMerchantPayment } from "@/lib/payments/queries";
import { PROCESSOR_NAMES, processorDashboardUrl } from "@/lib/processors/names";
import { listPaymentRefunds } from "@/lib/refunds/queries";
import { cancelPendingPayment, settle } from "../actions";
import { loadPayment } from "./load-payment";
import { PaymentTimeline } from "./payment-timeline";
import { RefundDialog } from "./refund-dialog";
import { RefundsSection } from "./refunds-section";
import { SettleButtons } from "./settle-buttons";

type Props = { params: Promise<{ id: string }> };

/** A payment has few refunds (each takes part of its amount); the page lists this many, newest first. */
const REFUNDS_SHOWN = 100;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { record: payment } = await loadPayment(params);
  return { title: `Payment ${payment.id}` };
}

function IdWithCopy({ value, label }: { value: string; label: string }) {
  return (
    <span className="flex items-center gap-2">
      <span className="break-all font-mono">{value}</span>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/** "2 refused cards", "5 refused cards, locked": card numbers that were not test cards, at its checkout. */
function refusalSummary({ refusedCards, locked }: { refusedCards: number; locked: boolean }): string {
  return `${refusedCards} refused ${refusedCards === 1 ? "card" : "cards"}${locked ? ", locked" : ""}`;
}

export default async function PaymentPage({ params }: Props) {
  const { merchantId, role, environment, record: loaded } = await loadPayment(params);
  const db = getDb();
  // The version first, then everything it versions (the payment again too: the layout read it earlier), so a
  // change in between makes the page render once more instead of going unseen.
  const version = await liveVersion(db, merchantId, { kind: "payment", id: loaded.id });
  const [payment, timeline, refundPage, refusals, dispute] = await Promise.all([
    getMerchantPayment(db, merchantId, loaded.id).then((fresh) => fresh ?? loaded),
    getPaymentTimeline(db, merchantId, loaded.id),
    listPaymentRefunds(db, merchantId, loaded.id, 1, REFUNDS_SHOWN),
    checkoutRefusals(db, merchantId, loaded.id),
    disputeOfPayment(db, merchantId, loaded.id),
  ]);
  // Open or lost, a dispute refuses refunds (the API's 422 on payment); won or a closed inquiry does not.
  const disputed = dispute !== undefined && dispute.status !== "won" && dispute.status !== "warning_closed";
  // Every amount on the page is in the payment's currency: its refunds' too.
  const currency = payment.currency;
  const refunds = refundPage?.items ?? [];
  const canWrite = can(role, "payments:write");
  const completed = payment.status === "completed";
  const metadata = metadataEntries(payment.metadata);
  const fields: Array<[string, React.ReactNode]> = [
    ["ID", <IdWithCopy key="id" value={String(payment.id)} label="Copy ID" />],
    [
      "External ID",
      payment.external_id ? (
        <IdWithCopy key="ext" value={payment.external_id} label="Copy external ID" />
      ) : (
        "—"
      ),
    ],
    [
      "Customer ID",
      payment.customerId ? (
        <Link
          key="customer"
          href={`/dashboard/customers/${encodeURIComponent(payment.customerId)}`}
          className="break-all font-mono text-indigo-700 hover:underline dark:text-indigo-300"
        >
          {payment.customerId}
        </Link>
      ) : (
        "—"
      ),
    ],
    ["Payment method", payment.payment_method ? cardLabel(payment.payment_method) : "—"],
    ...(payment.paymentLink
      ? [
          [
            "Payment link",
            <Link
              key="link"
              href={`/dashboard/payment-links/${payment.paymentLink.id}`}
              className="text-indigo-700 hover:underline dark:text-indigo-300"
            >
              {payment.paymentLink.name}
            </Link>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ...(refusals && refusals.refusedCards > 0
      ? [
          [
            "Checkout",
            <span key="checkout" data-testid="checkout-refusals">
              {refusalSummary(refusals)}
            </span>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ...(payment.returnUrl
      ? [
          [
            "Return URL",
            <span key="return" className="break-all">
              {payment.returnUrl}
            </span>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ["Type", payment.type],
    // What the platform took, and what the payment added to the balance (docs/money.md).
    ...(payment.fee !== null && payment.net !== null
      ? ([
          ["Fee", formatMoney(payment.fee, currency)],
          ["Net", formatMoney(payment.net, currency)],
        ] as Array<[string, string]>)
      : []),
    ["Refunded", formatMoney(payment.amountRefunded, currency)],
    ...(completed
      ? [["Refundable", formatMoney(payment.amountRefundable, currency)] as [string, string]]
      : []),
    ["Created", <RelativeTime key="created" value={payment.created_at} />],
    ["Settled", payment.settledAt ? <RelativeTime key="settled" value={payment.settledAt} /> : "—"],
    ...(payment.failureReason ? [["Why it failed", payment.failureReason] as [string, string]] : []),
    // The code a program branches on, as the API and the payment.failed event give it.
    ...(payment.failure_code
      ? [
          [
            "Failure code",
            <code key="failure-code" className="font-mono">
              {payment.failure_code}
            </code>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ["Source", payment.source],
    // Who takes it: the simulator, or the processor and its id there, linked to the processor's own page.
    [
      "Processor",
      payment.processor === "simulator" || payment.processor_payment_id === null ? (
        "Simulator"
      ) : (
        <span key="processor" className="flex flex-wrap items-center gap-2">
          {PROCESSOR_NAMES[payment.processor]}
          <a
            href={processorDashboardUrl(
              payment.processor,
              payment.processor_payment_id,
              environment.kind === "live",
            )}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all font-mono text-indigo-700 underline dark:text-indigo-300"
            data-testid="processor-payment-id"
          >
            {payment.processor_payment_id}
          </a>
        </span>
      ),
    ],
  ];
  const refundable = completed && payment.amountRefundable !== "0.00" && !disputed;
  // Nothing to do with a settled payment that has nothing left to refund: no empty row of buttons. A
  // processor's payment is moved by its processor only, and refunded through it (docs/processors.md).
  const simulated = payment.processor === "simulator";
  const hasActions = canWrite && ((simulated && payment.status === "pending") || refundable);
  // Settling a refund by hand is the simulator's, in a sandbox: a processor's refund is moved by the processor.
  const canSettleRefunds = canWrite && simulated && environment.kind !== "live";
  return (
    <div className="max-w-4xl space-y-6">
      <LiveUpdates scope={`payment:${payment.id}`} version={version} />
      <div>
        <BackLink href="/dashboard/payments">Payments</BackLink>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Payment {payment.id}</p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-semibold tabular-nums">{formatMoney(payment.amount, currency)}</h1>
          <span data-testid="payment-status">
            <PaymentStatusWithRefunds
              payment={{
                status: payment.status,
                amount: payment.amount,
                amount_refunded: payment.amountRefunded,
                failure_reason: payment.failureReason,
              }}
            />
          </span>
          {dispute ? (
            <Link
              href={`/dashboard/disputes/${dispute.id}`}
              aria-label={`Dispute ${dispute.id}: ${dispute.status}`}
            >
              <StatusBadge tone={disputed ? "red" : "gray"}>
                {dispute.status.startsWith("warning_") ? "Inquiry" : "Disputed"}
              </StatusBadge>
            </Link>
          ) : null}
        </div>
      </div>
      {refusals?.locked && payment.status === "pending" ? (
        <Alert tone="warning">
          Its checkout page is locked: it refused {refusals.refusedCards} card numbers that were not test
          cards, which is how card testing looks. The payer can no longer pay it there; cancel it and create
          another.
        </Alert>
      ) : null}
      {payment.checkout_url ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <CopyButton value={payment.checkout_url} label="Copy payment link" />
          <span className="text-zinc-600 dark:text-zinc-400">The page a payer pays this payment on.</span>
        </div>
      ) : null}
      {hasActions ? (
        <div className="flex flex-wrap items-start gap-2">
          <SettleButtons
            action={settle}
            fields={{ payment_id: payment.id }}
            open={payment.status === "pending"}
            description="This is final: a completed or failed payment never changes again, and its event is sent to your webhook endpoints."
            choices={[
              { outcome: "completed", label: "Mark as paid", title: `Mark payment ${payment.id} as paid?` },
              {
                outcome: "failed",
                label: "Mark as failed",
                title: `Mark payment ${payment.id} as failed?`,
                danger: true,
              },
            ]}
          />
          <SettleButtons
            action={cancelPendingPayment}
            fields={{ payment_id: payment.id }}
            open={payment.status === "pending"}
            description="The payment fails with the reason “Canceled by the merchant.”, and payment.failed is sent to your webhook endpoints. This cannot be undone."
            choices={[
              {
                outcome: "cancel",
                label: "Cancel payment",
                title: `Cancel payment ${payment.id}?`,
                danger: true,
              },
            ]}
          />
          {refundable ? (
            <RefundDialog
              paymentId={payment.id}
              refundable={payment.amountRefundable}
              refundableLabel={formatMoney(payment.amountRefundable, currency)}
            />
          ) : null}
        </div>
      ) : null}
      <FieldGrid fields={fields} columns={2} />
      <section aria-labelledby="metadata-heading" className="space-y-3">
        <h2 id="metadata-heading" className="text-base font-semibold">
          Metadata
        </h2>
        {metadata ? (
          <dl className="divide-y divide-zinc-100 rounded-lg bg-white text-sm shadow-sm ring-1 ring-zinc-200 dark:divide-zinc-800 dark:bg-zinc-900 dark:ring-zinc-800">
            {metadata.map(([key, value]) => (
              <div key={key} className="grid gap-1 px-4 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
                <dt className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{key}</dt>
                <dd className="break-all font-mono text-xs">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">—</p>
        )}
      </section>
      <RefundsSection refunds={refunds} canSettle={canSettleRefunds} />
      <PaymentTimeline
        paymentId={payment.id}
        timeline={timeline}
        failureReason={payment.failureReason}
        currency={currency}
      />
    </div>
  );
}
