import "server-only";
import { sql } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import type { PaymentFailureCode, Processor } from "@/db/enums";
import type { PaymentMethod } from "@/db/schema";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { recordPaymentEvent } from "./outbox";
import { toPaymentResource } from "./resource";

/** A payment as its transition's statement returns it (lib/payments/settlement.ts). */
export type TransitionedRow = {
  id: number | string;
  merchant_id: number | string;
  external_id: string | null;
  /** What it moved to: a transition leaves pending. */
  status: "completed" | "failed";
  amount: string;
  currency: string;
  metadata: string | null;
  created_at: Date | string;
  payment_method: PaymentMethod | null;
  customer_id: string | null;
  failure_code: PaymentFailureCode | null;
  failure_reason: string | null;
  fee: string | null;
  net: string | null;
  processor: Processor;
  processor_payment_id: string | null;
  settled_at: Date | string;
};

/**
 * Moves settled payments from their day's pending totals to their outcome's (the merchant's and their
 * customer's rows: the Overview's and the lists' rollup), and adds completed ones to their customer's volume,
 * one statement each per batch. PostgreSQL sums the moves per row and applies them in key order, so two
 * workers settling at once lock the rows in the same order and cannot deadlock.
 */
async function moveRollups(tx: Transaction, settled: TransitionedRow[]): Promise<void> {
  if (settled.length === 0) return;
  const moves = settled.flatMap((row) => {
    const createdAt = isoTimestamp(row.created_at);
    return ["", row.customer_id ?? ""]
      .filter((scope, index) => index === 0 || scope !== "")
      .flatMap((scope) => [
        sql`(${row.merchant_id}::bigint, ${scope}::text, ${createdAt}::timestamptz, 'pending', ${row.currency}::text, -1, -${row.amount}::numeric)`,
        sql`(${row.merchant_id}::bigint, ${scope}::text, ${createdAt}::timestamptz, ${row.status}::text, ${row.currency}::text, 1, ${row.amount}::numeric)`,
      ]);
  });
  await tx.execute(sql`
    insert into payment_daily_totals as t (merchant_id, customer_id, day, status, currency, count, volume)
    select merchant_id, customer_id, (created_at at time zone 'UTC')::date, status, currency, sum(count), sum(volume)
    from (values ${sql.join(moves, sql`, `)}) as v(merchant_id, customer_id, created_at, status, currency, count, volume)
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (merchant_id, customer_id, day, status, refund_state, currency) do update
      set count = t.count + excluded.count, volume = t.volume + excluded.volume`);
  const completed = settled.filter((row) => row.status === "completed" && row.customer_id);
  if (completed.length === 0) return;
  await tx.execute(sql`
    insert into customer_volumes as c (merchant_id, customer_id, currency, completed)
    select merchant_id, customer_id, currency, sum(volume)
    from (values ${sql.join(
      completed.map(
        (row) =>
          sql`(${row.merchant_id}::bigint, ${row.customer_id}::text, ${row.currency}::text, ${row.amount}::numeric)`,
      ),
      sql`, `,
    )}) as moved(merchant_id, customer_id, currency, volume)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (merchant_id, customer_id, currency) do update set completed = c.completed + excluded.completed`);
}

/**
 * What follows transitioned payments in their transaction (their money is already on the ledger, posted by
 * the transition's own statement): each one's event, then the rollups. Both are one row per merchant and hour
 * or day, locked until commit, taken last so that they are held for as short a time as the transaction allows.
 * Events in one order (merchant, then outcome), so two batches take those rows alike and never deadlock.
 */
export async function recordSettled(tx: Transaction, settled: TransitionedRow[]): Promise<void> {
  const ordered = settled.toSorted(
    (a, b) => Number(a.merchant_id) - Number(b.merchant_id) || a.status.localeCompare(b.status),
  );
  for (const row of ordered)
    await recordPaymentEvent(tx, Number(row.merchant_id), `payment.${row.status}`, toPaymentResource(row));
  await moveRollups(tx, ordered);
}
