import { sql, type SQL } from "drizzle-orm";
import type { PaymentFailureCode, PaymentStatus } from "@/db/enums";
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
 * failed (null unless failed).
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
  };
}

const PAYMENT_JSON_FIELDS = [
  "id",
  "external_id",
  "status",
  "amount",
  "currency",
  "metadata",
  "customer_id",
  "created_at",
  "checkout_url",
  "payment_method",
  "failure_code",
  "failure_reason",
  "fee",
  "net",
] as const;

/** Each field of a payment resource as SQL: a column, or a value the statement knows already. */
export type PaymentJsonFields = Record<(typeof PAYMENT_JSON_FIELDS)[number], SQL>;

/**
 * toPaymentResource's object built by PostgreSQL (json_build_object keeps this key order), for the statements
 * that write a payment and its event at once: its creation (the id and time exist only once the row does) and
 * a settle. Amounts are stored in exactly their currency's minor units, so their text is the resource's.
 * tests/integration/webhooks.test.ts checks the two agree.
 */
export function paymentResourceJson(fields: PaymentJsonFields): SQL {
  return sql`json_build_object('id', ${fields.id}, 'external_id', ${fields.external_id}::text, 'type', 'payment',
    'status', ${fields.status}::text, 'amount', ${fields.amount}::text,
    'currency', ${fields.currency}::text, 'metadata', ${fields.metadata}::text,
    'customer_id', ${fields.customer_id}::text,
    'created_at', to_char(${fields.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'checkout_url', ${fields.checkout_url}::text, 'payment_method', ${fields.payment_method}::json,
    'failure_code', ${fields.failure_code}::text, 'failure_reason', ${fields.failure_reason}::text,
    'fee', ${fields.fee}::text, 'net', ${fields.net}::text)`;
}

/** paymentResourceJson over the columns of a row named `table` that is no longer pending (no checkout page). */
export function settledPaymentJson(table: string): SQL {
  const fields = Object.fromEntries(
    PAYMENT_JSON_FIELDS.map((name) => [name, sql.raw(`${table}.${name}`)]),
  ) as PaymentJsonFields;
  return paymentResourceJson({ ...fields, checkout_url: sql`null` });
}
