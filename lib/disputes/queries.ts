import "server-only";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { allOf } from "@/lib/platform/day-count-pages";
import { DISPUTE_COLUMNS, toDispute, type DisputeRow } from "./disputes";
import type { Dispute, listDisputesQuerySchema } from "./schemas";

export type DisputeFilter = Partial<z.output<typeof listDisputesQuerySchema>> & {
  page: number;
  perPage: number;
};

/**
 * GET /api/disputes and the Disputes page: newest first, by status and payment, with the filter's total. A
 * merchant has few disputes next to its payments (0.1% here), so counting them is one short index range.
 */
export async function listDisputes(
  db: Executor,
  merchantId: number,
  filter: DisputeFilter,
): Promise<{ items: Dispute[]; total: number }> {
  const where = allOf([
    sql`merchant_id = ${merchantId}`,
    ...(filter.status ? [sql`status = ${filter.status}`] : []),
    ...(filter.payment_id !== undefined ? [sql`payment_id = ${filter.payment_id}`] : []),
  ]);
  const [rows, [count]] = await Promise.all([
    selectRows<DisputeRow>(
      db,
      sql`select ${DISPUTE_COLUMNS} from disputes where ${where}
          order by created_at desc, id desc offset ${(filter.page - 1) * filter.perPage} limit ${filter.perPage}`,
    ),
    selectRows<{ total: number | string }>(db, sql`select count(*) as total from disputes where ${where}`),
  ]);
  return { items: rows.map(toDispute), total: Number(count!.total) };
}

/** One of the merchant's disputes; another merchant's is none (404). */
export async function findDispute(
  db: Executor,
  merchantId: number,
  disputeId: number,
): Promise<Dispute | undefined> {
  const [row] = await selectRows<DisputeRow>(
    db,
    sql`select ${DISPUTE_COLUMNS} from disputes where merchant_id = ${merchantId} and id = ${disputeId}`,
  );
  return row && toDispute(row);
}

/** A payment's dispute, if it has one (its page shows it). */
export async function disputeOfPayment(
  db: Executor,
  merchantId: number,
  paymentId: number,
): Promise<Dispute | undefined> {
  const [row] = await selectRows<DisputeRow>(
    db,
    sql`select ${DISPUTE_COLUMNS} from disputes where merchant_id = ${merchantId} and payment_id = ${paymentId}`,
  );
  return row && toDispute(row);
}

/** How many wait for the merchant's answer: the navigation's count. */
export async function countNeedingResponse(db: Executor, merchantId: number): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from disputes
        where merchant_id = ${merchantId} and status in ('needs_response', 'warning_needs_response')`,
  );
  return Number(row!.n);
}
