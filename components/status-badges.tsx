import type { DeliveryStatus, PaymentStatus } from "@/db/enums";
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

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <StatusBadge tone={DELIVERY_TONE[status]}>{status}</StatusBadge>;
}
