import type { PaymentStatus } from "@/lib/payment-schemas";
import { StatusBadge } from "./ui/status-badge";

const TONE = { pending: "yellow", completed: "green", failed: "red" } as const;

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return <StatusBadge tone={TONE[status]}>{status}</StatusBadge>;
}
