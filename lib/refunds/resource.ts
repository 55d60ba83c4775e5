import { sql, type SQL } from "drizzle-orm";
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

const utc = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * toRefundResource's object built by PostgreSQL over a row named `table` (json_build_object keeps this key
 * order), for the statements that write a refund and its event at once.
 */
export function refundResourceJson(table: string): SQL {
  const column = (name: string) => sql.raw(`${table}.${name}`);
  return sql`json_build_object('id', ${column("id")}, 'payment_id', ${column("payment_id")},
    'amount', ${column("amount")}::text, 'currency', ${column("currency")}, 'status', ${column("status")}, 'reason', ${column("reason")},
    'external_id', ${column("external_id")}, 'failure_reason', ${column("failure_reason")},
    'created_at', ${utc(column("created_at"))}, 'settled_at', ${utc(column("settled_at"))})`;
}
