import type { ReactNode } from "react";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { RefundStatusBadge } from "@/components/status-badges";
import { Card } from "@/components/ui/card-list";
import type { RefundResource } from "@/lib/refunds/schemas";

const REFUND_REASON_LABELS: Record<string, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent",
  other: "Other",
};

/** The reason a merchant gave for a refund, in words. */
function refundReasonLabel(refund: RefundResource): string | null {
  return refund.reason ? (REFUND_REASON_LABELS[refund.reason] ?? refund.reason) : null;
}

/** Why the refund failed, under its status badge (narrow in a table, the card's width on a phone). */
function RefundFailureReason({ refund }: { refund: RefundResource }) {
  return refund.failure_reason ? (
    <p className="mt-1 text-xs text-zinc-600 sm:max-w-56 dark:text-zinc-400">{refund.failure_reason}</p>
  ) : null;
}

/** A refund's amount, status, reason and creation time: the cells every refunds table shares. */
export function RefundDetailCells({ refund }: { refund: RefundResource }) {
  return (
    <>
      <td className="px-4 py-3 text-right tabular-nums">{formatMoney(refund.amount, refund.currency)}</td>
      <td className="px-4 py-3">
        <RefundStatusBadge status={refund.status} />
        <RefundFailureReason refund={refund} />
      </td>
      <td className="px-4 py-3">{refundReasonLabel(refund) ?? "—"}</td>
      <td className="whitespace-nowrap px-4 py-3">
        <RelativeTime value={refund.created_at} />
      </td>
    </>
  );
}

/**
 * One refund on a phone, wherever refunds are listed: amount and status, then "Refund {id}", what it belongs
 * to (`of`, e.g. a link to its payment) and when. `children` are its actions.
 */
export function RefundCard({
  refund,
  of,
  children,
}: {
  refund: RefundResource;
  of?: ReactNode;
  children?: ReactNode;
}) {
  const reason = refundReasonLabel(refund);
  return (
    <Card>
      <div className="flex items-start justify-between gap-2">
        <p className="font-medium tabular-nums">{formatMoney(refund.amount, refund.currency)}</p>
        <RefundStatusBadge status={refund.status} />
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Refund <span className="break-all font-mono">{refund.id}</span>
        {of ? <> of {of}</> : null} · <RelativeTime value={refund.created_at} />
      </p>
      {reason ? <p className="text-xs">{reason}</p> : null}
      <RefundFailureReason refund={refund} />
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </Card>
  );
}
