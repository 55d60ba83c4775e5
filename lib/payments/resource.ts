import type { PaymentFailureCode, PaymentStatus, Processor } from "@/db/enums";
import type { PaymentMethod } from "@/db/schema";
import { inMinorUnits } from "@/lib/money/amount";
import { isoTimestamp } from "@/lib/platform/timestamps";
import type { PaymentListItem, PaymentResource } from "./schemas";

export type PaymentRow = {
  id: number | string;
  external_id: string | null;
  status: string;
  amount: string;
  currency: string;
  metadata?: string | null;
  created_at: Date | string;
  payment_method?: PaymentMethod | string | null;
};

/** What a full payment reads beyond a list item's fields: every one, so no caller can forget one. */
export type FullPaymentRow = PaymentRow & {
  metadata: string | null;
  customer_id: string | null;
  payment_method: PaymentMethod | string | null;
  failure_code: PaymentFailureCode | null;
  failure_reason: string | null;
  fee: string | null;
  net: string | null;
  processor: Processor;
  processor_payment_id: string | null;
};

/** json columns arrive parsed from postgres.js and PGlite, as text when a statement casts them. */
function paymentMethodOf(value: PaymentRow["payment_method"]): PaymentMethod | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? (JSON.parse(value) as PaymentMethod) : value;
}

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
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    created_at: isoTimestamp(row.created_at),
  };
}

/**
 * A full payment (paymentSchema): the list fields, then metadata and customer_id, in the contract's field
 * order, then its checkout page (while pending; the caller reads it), the card it was paid with, and why it
 * failed (null unless failed), its fee and net, and who takes it (the simulator, or a processor and its id).
 */
export function toPaymentResource(row: FullPaymentRow, checkoutUrl: string | null = null): PaymentResource {
  const { created_at, ...listFields } = toPaymentListItem(row);
  return {
    ...listFields,
    metadata: row.metadata,
    customer_id: row.customer_id,
    created_at,
    checkout_url: row.status === "pending" ? checkoutUrl : null,
    payment_method: paymentMethodOf(row.payment_method),
    failure_code: row.failure_code,
    failure_reason: row.failure_reason,
    fee: row.fee === null ? null : inMinorUnits(row.fee, row.currency),
    net: row.net === null ? null : inMinorUnits(row.net, row.currency),
    processor: row.processor,
    processor_payment_id: row.processor_payment_id,
  };
}
