import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { isoTimestamp } from "./timestamps";

/**
 * Every row of `from` that `where` matches, newest first, in keyset batches on (created_at, id): a CSV
 * download's rows (payments, balance transactions, the security history). Memory stays flat however many rows
 * there are, and no batch re-scans the ones before it. `columns` must select `id` and `created_at`.
 */
export async function* newestFirstBatches<Row extends { id: number | string; created_at: Date | string }>(
  db: Executor,
  { columns, from, where }: { columns: SQL; from: string; where: SQL },
  batchSize = 5000,
): AsyncGenerator<Row[], void> {
  let cursor: { createdAt: string; id: number } | undefined;
  for (;;) {
    const after = cursor
      ? sql`and (created_at, id) < (${cursor.createdAt}::timestamptz, ${cursor.id})`
      : sql``;
    const rows = await selectRows<Row>(
      db,
      sql`select ${columns} from ${sql.raw(from)} where ${where} ${after}
          order by created_at desc, id desc limit ${batchSize}`,
    );
    if (rows.length === 0) return;
    yield rows;
    const last = rows.at(-1)!;
    cursor = { createdAt: isoTimestamp(last.created_at), id: Number(last.id) };
    if (rows.length < batchSize) return;
  }
}
