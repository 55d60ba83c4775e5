import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { PAYOUT_COLUMNS, toPayout, type PayoutRow } from "./payouts";
import type { Payout } from "./schemas";

/** GET /api/payouts: the merchant's, newest first (a merchant has a payout a day at most, by schedule). */
export async function listPayouts(
  db: Executor,
  merchantId: number,
  page: number,
  perPage: number,
): Promise<{ items: Payout[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    selectRows<PayoutRow>(
      db,
      sql`select ${PAYOUT_COLUMNS} from payouts where merchant_id = ${merchantId}
          order by created_at desc, id desc offset ${(page - 1) * perPage} limit ${perPage}`,
    ),
    selectRows<{ total: number | string }>(
      db,
      sql`select count(*) as total from payouts where merchant_id = ${merchantId}`,
    ),
  ]);
  return { items: rows.map(toPayout), total: Number(count!.total) };
}

/** One of the merchant's payouts; another merchant's is none (404), as for balance transactions. */
export async function findPayout(
  db: Executor,
  merchantId: number,
  payoutId: number,
): Promise<Payout | undefined> {
  const [row] = await selectRows<PayoutRow>(
    db,
    sql`select ${PAYOUT_COLUMNS} from payouts where merchant_id = ${merchantId} and id = ${payoutId}`,
  );
  return row && toPayout(row);
}
