import type { DeliveryStatus, DisputeStatus, PaymentStatus, PayoutStatus, RefundStatus } from "@/db/enums";
import { wasCanceled } from "@/lib/payments/canceled";
import { refundMark } from "@/lib/refunds/refund-mark";
import { StatusBadge } from "./ui/status-badge";

const PAYMENT_TONE = { pending: "yellow", completed: "green", failed: "red" } as const satisfies Record<
  PaymentStatus,
  string
>;
const DELIVERY_TONE = { pending: "yellow", succeeded: "green", failed: "red" } as const satisfies Record<
  DeliveryStatus,
  string
>;

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return <StatusBadge tone={PAYMENT_TONE[status]}>{status}</StatusBadge>;
}

const REFUND_TONE = { pending: "yellow", succeeded: "green", failed: "red" } as const satisfies Record<
  RefundStatus,
  string
>;

export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  return <StatusBadge tone={REFUND_TONE[status]}>{status}</StatusBadge>;
}

/**
 * The payment's status, then "Canceled" for one the merchant canceled (when its failure reason is known), or
 * "Refunded" or "Partially refunded" once refunds have succeeded.
 */
export function PaymentStatusWithRefunds({
  payment,
}: {
  payment: { status: PaymentStatus; amount: string; amount_refunded: string; failure_reason?: string | null };
}) {
  const mark = refundMark(payment.amount, payment.amount_refunded);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <PaymentStatusBadge status={payment.status} />
      {wasCanceled(payment) ? <StatusBadge tone="gray">Canceled</StatusBadge> : null}
      {mark ? (
        <StatusBadge tone="gray">{mark === "refunded" ? "Refunded" : "Partially refunded"}</StatusBadge>
      ) : null}
    </span>
  );
}

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <StatusBadge tone={DELIVERY_TONE[status]}>{status}</StatusBadge>;
}

const PAYOUT_TONE = {
  pending: "yellow",
  in_transit: "yellow",
  paid: "green",
  failed: "red",
  canceled: "gray",
} as const satisfies Record<PayoutStatus, string>;

export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  return <StatusBadge tone={PAYOUT_TONE[status]}>{status.replace("_", " ")}</StatusBadge>;
}

const DISPUTE_TONE = {
  warning_needs_response: "yellow",
  warning_under_review: "gray",
  warning_closed: "gray",
  needs_response: "red",
  under_review: "yellow",
  won: "green",
  lost: "red",
} as const satisfies Record<DisputeStatus, string>;

/** "needs response", "inquiry: under review": an inquiry (`warning_…`) says so. */
export const disputeStatusLabel = (status: DisputeStatus) =>
  status.startsWith("warning_")
    ? `inquiry: ${status.slice("warning_".length).replaceAll("_", " ")}`
    : status.replaceAll("_", " ");

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  return <StatusBadge tone={DISPUTE_TONE[status]}>{disputeStatusLabel(status)}</StatusBadge>;
}
