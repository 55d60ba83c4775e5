import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { unownedRowError, type OwnedTable } from "@/lib/platform/ownership";
import { idParam } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { inApiWords } from "./responses";

/** After a lookup scoped to the caller found nothing: 403 when the id is another merchant's, else 404. */
export async function refuseUnowned(
  db: Executor,
  table: OwnedTable,
  id: number | string,
  merchantId: number,
): Promise<never> {
  throw inApiWords(await unownedRowError(db, table, id, merchantId));
}

/** The id in a path, one of the merchant's rows of `table`: else 404 (none, or not an id) or 403 (another's). */
export async function ownedId(
  db: Executor,
  table: OwnedTable,
  raw: string,
  merchantId: number,
): Promise<number> {
  const id = idParam.safeParse(raw);
  if (!id.success) throw HttpError.of("notFound");
  const [mine] = await selectRows(
    db,
    sql`select 1 from ${sql.identifier(table)} where merchant_id = ${merchantId} and id = ${id.data}`,
  );
  return mine ? id.data : refuseUnowned(db, table, id.data, merchantId);
}
