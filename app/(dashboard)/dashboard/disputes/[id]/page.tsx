import type { Metadata } from "next";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { DisputeStatusBadge } from "@/components/status-badges";
import { FieldGrid } from "@/components/ui/field-grid";
import { BackLink } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { DISPUTE_CLOSED, type DisputeEvidenceField } from "@/db/enums";
import { can } from "@/lib/accounts/permissions";
import { transactionsOfSource } from "@/lib/ledger/balance-transactions";
import { disputeFee } from "@/lib/ledger/pricing";
import { BalanceTransactionsTable } from "../../balance/balance-transactions-table";
import { acceptDisputeAction } from "../actions";
import { EvidenceForm } from "./evidence-form";
import { EVIDENCE_LABELS } from "./evidence-labels";
import { loadDispute } from "./load-dispute";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { record: dispute } = await loadDispute(params);
  return { title: `Dispute ${dispute.id}` };
}

const REASONS: Record<string, string> = {
  fraudulent: "Fraudulent: the payer says they did not make this payment",
  product_not_received: "Product not received",
  product_unacceptable: "Product unacceptable",
  duplicate: "Duplicate payment",
  subscription_canceled: "Subscription canceled",
  credit_not_processed: "Credit not processed",
  unrecognized: "Unrecognized",
  general: "General",
};

/**
 * One dispute: what the bank took and why, the deadline, the payment, and the answer: an evidence form to save
 * or submit while one is due, then the evidence as sent; "Accept dispute" until it is decided.
 */
export default async function DisputePage({ params }: Props) {
  const { merchantId, role, record: dispute } = await loadDispute(params);
  const inquiry = dispute.status.startsWith("warning_");
  const closed = DISPUTE_CLOSED.includes(dispute.status);
  const answering = dispute.status === "needs_response" || dispute.status === "warning_needs_response";
  const mayAct = can(role, "payments:write");
  const fields: Array<[string, React.ReactNode]> = [
    [
      "Amount",
      inquiry
        ? `${formatMoney(dispute.amount, dispute.currency)} (nothing withdrawn)`
        : formatMoney(dispute.amount, dispute.currency),
    ],
    ["Status", <DisputeStatusBadge key="status" status={dispute.status} />],
    ["Reason", REASONS[dispute.reason] ?? dispute.reason],
    [
      "Payment",
      <Link
        key="payment"
        href={`/dashboard/payments/${dispute.payment_id}`}
        className="font-mono text-indigo-700 hover:underline dark:text-indigo-300"
      >
        {dispute.payment_id}
      </Link>,
    ],
    ["Opened", <RelativeTime key="opened" value={dispute.created_at} />],
    closed
      ? ["Closed", <RelativeTime key="closed" value={dispute.closed_at!} />]
      : ["Evidence due", <RelativeTime key="due" value={dispute.evidence_due_by} />],
  ];
  const given = (Object.keys(EVIDENCE_LABELS) as DisputeEvidenceField[]).filter(
    (field) => dispute.evidence[field],
  );
  const moves = inquiry
    ? []
    : await transactionsOfSource(getDb(), merchantId, ["dispute", "dispute_won"], dispute.id);
  const amount = formatMoney(dispute.amount, dispute.currency);
  const fee = formatMoney(disputeFee(dispute.currency), dispute.currency);
  // A closed dispute says how it ended and what money moved (DESIGN.md, "Dashboard").
  const story = inquiry
    ? dispute.status === "warning_closed"
      ? "The inquiry is closed. No money moved."
      : "The payer's bank asks about this payment before disputing it. Nothing is withdrawn; answering may prevent a dispute."
    : dispute.status === "won"
      ? `Won: ${amount} was reinstated to your balance. The ${fee} dispute fee stays withdrawn.`
      : dispute.status === "lost"
        ? `Lost: ${amount} and the ${fee} dispute fee stay withdrawn.`
        : `The payer's bank took ${amount} back, with a ${fee} dispute fee. Won, the amount returns (the fee does not); lost or unanswered by the deadline, both stay withdrawn.`;
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <BackLink href="/dashboard/disputes">Disputes</BackLink>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">
            {inquiry ? "Inquiry" : "Dispute"} <span className="font-mono">{dispute.id}</span>
          </h1>
          {!closed && mayAct ? (
            <ConfirmActionButton
              action={acceptDisputeAction}
              fields={{ dispute_id: dispute.id }}
              label={inquiry ? "Close inquiry" : "Accept dispute"}
              title={inquiry ? "Close this inquiry?" : "Accept this dispute?"}
              description={
                inquiry
                  ? "The inquiry closes; no money moves."
                  : `You lose it: ${formatMoney(dispute.amount, dispute.currency)} and the ${formatMoney(disputeFee(dispute.currency), dispute.currency)} dispute fee stay withdrawn.`
              }
              confirmLabel={inquiry ? "Close inquiry" : "Accept dispute"}
            />
          ) : null}
        </div>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dispute-outcome">
        {story}
      </p>
      <FieldGrid fields={fields} columns={3} />
      {moves.length > 0 ? (
        <section className="space-y-3">
          <h2 className="text-base font-semibold">Money moved</h2>
          <BalanceTransactionsTable
            moves={moves}
            caption="Money moved by this dispute"
            empty="No money moved."
          />
        </section>
      ) : null}
      <section
        aria-labelledby="evidence-heading"
        className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <h2 id="evidence-heading" className="text-base font-semibold">
          Evidence
        </h2>
        {answering && mayAct ? (
          <EvidenceForm disputeId={dispute.id} evidence={dispute.evidence} />
        ) : given.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {answering ? "No evidence yet. A viewer cannot answer." : "No evidence was submitted."}
          </p>
        ) : (
          <dl className="space-y-3">
            {given.map((field) => (
              <div key={field}>
                <dt className="text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
                  {EVIDENCE_LABELS[field].label}
                </dt>
                <dd className="mt-1 whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">
                  {dispute.evidence[field]}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}
