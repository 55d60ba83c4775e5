import type { PaymentStatus } from "@/db/enums";
import { isoTimestamp } from "@/lib/platform/timestamps";
import type { PaymentListItem, PaymentResource } from "./schemas";

export type PaymentRow = {
  id: number | string;
  external_id: string | null;
  status: string;
  amount: string;
  metadata?: string | null;
  created_at: Date | string;
};

/**
 * Exactly the fields of a list item (paymentListItemSchema, which documents them), built field by field so
 * nothing else a row carries can leak; no per-row validation on the hot path, the database's constraints
 * already guarantee the values.
 */
export function toPaymentListItem(row: PaymentRow): PaymentListItem {
  return {
    id: Number(row.id),
    external_id: row.external_id,
    type: "payment",
    status: row.status as PaymentStatus,
    amount: row.amount,
    created_at: isoTimestamp(row.created_at),
  };
}

/** A full payment (paymentSchema): the list fields, then metadata, in the contract's field order. */
export function toPaymentResource(row: PaymentRow): PaymentResource {
  const { created_at, ...listFields } = toPaymentListItem(row);
  return { ...listFields, metadata: row.metadata ?? null, created_at };
}
