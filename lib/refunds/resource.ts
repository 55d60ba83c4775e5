import { sql } from "drizzle-orm";
import type { RefundReason, RefundStatus } from "@/db/enums";
import { inMinorUnits } from "@/lib/money/amount";
import { isoTimestamp, isoTimestampOrNull } from "@/lib/platform/timestamps";
import type { RefundResource } from "./schemas";

export type RefundRow = {
  id: number | string;
  payment_id: number | string;
  amount: string;
  currency: string;
  status: string;
  reason: string | null;
  external_id: string | null;
  failure_reason: string | null;
  created_at: Date | string;
  settled_at: Date | string | null;
};

/** The columns a RefundRow is read from, for raw statements. */
export const REFUND_COLUMNS = sql.raw(
  "id, payment_id, amount, currency, status, reason, external_id, failure_reason, created_at, settled_at",
);

/** Exactly the fields of a refund (refundSchema), field by field, so nothing else a row carries leaks. */
export function toRefundResource(row: RefundRow): RefundResource {
  return {
    id: Number(row.id),
    payment_id: Number(row.payment_id),
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    status: row.status as RefundStatus,
    reason: row.reason as RefundReason | null,
    external_id: row.external_id,
    failure_reason: row.failure_reason,
    created_at: isoTimestamp(row.created_at),
    settled_at: isoTimestampOrNull(row.settled_at),
  };
}
