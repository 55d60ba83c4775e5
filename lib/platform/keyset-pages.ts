import { z } from "zod";
import { idParam } from "./validation";

/**
 * Paging a newest-first log (API requests, webhook deliveries) by id instead of by offset, so any page costs
 * an index range. The URL says where to read: the newest page (nothing), older than an id (`before`), newer
 * than an id (`after`, the way back) or the oldest page (`last=1`). A bad value is ignored.
 */
export const keysetCursorSchema = z.object({
  before: idParam.optional().catch(undefined),
  after: idParam.optional().catch(undefined),
  last: z.literal("1").optional().catch(undefined),
});
export type KeysetCursor = z.infer<typeof keysetCursorSchema>;

/**
 * Rows counted at most to number the pages: past 10,000 a page reads "Page 200+", so a deep log costs what a
 * short one does (the payments search caps its count the same way).
 */
export const PAGE_COUNT_CAP = 10_000;

export type KeysetPage<Row> = {
  rows: Row[];
  /** The cursor of the next (older) page, or null on the oldest. */
  olderBefore: number | null;
  /** The cursor of the previous (newer) page, or null on the newest. */
  newerAfter: number | null;
  /** 1-based; null when the rows newer than this page pass the count's cap. */
  page: number | null;
  pageCount: number;
  pageCountIsCapped: boolean;
};

/** How a list reads its rows for a cursor: `limit` rows in `order` of id, past `after`/`before` if given. */
export type FetchRows<Row> = (range: {
  before?: number;
  after?: number;
  order: "desc" | "asc";
  limit: number;
}) => Promise<Row[]>;

/** How a list counts its rows (up to `cap`), and of those the ones newer than an id. */
export type CountRows = (cap: number, newerThan: number | null) => Promise<{ total: number; newer: number }>;

/** One page of a newest-first list, with its neighbours' cursors and its number. */
export async function readKeysetPage<Row extends { id: number }>(
  cursor: KeysetCursor,
  pageSize: number,
  fetchRows: FetchRows<Row>,
  countRows: CountRows,
): Promise<KeysetPage<Row>> {
  let rows: Row[];
  let hasOlder: boolean;
  let hasNewer: boolean;
  let counted: { total: number; newer: number };
  if (cursor.last) {
    // The oldest page holds what is left over after full pages from the newest, so the numbers line up.
    counted = await countRows(PAGE_COUNT_CAP + 1, null);
    const capped = counted.total > PAGE_COUNT_CAP;
    const leftOver = capped ? pageSize : counted.total % pageSize || pageSize;
    rows = (await fetchRows({ order: "asc", limit: leftOver })).reverse();
    hasOlder = false;
    hasNewer = capped || counted.total > rows.length;
    counted = { total: counted.total, newer: capped ? counted.total : counted.total - rows.length };
  } else if (cursor.after !== undefined && cursor.before === undefined) {
    const fetched = await fetchRows({ after: cursor.after, order: "asc", limit: pageSize + 1 });
    rows = fetched.slice(0, pageSize).reverse();
    hasOlder = true;
    counted = await countRows(PAGE_COUNT_CAP + 1, rows[0]?.id ?? null);
    hasNewer = counted.newer > 0;
  } else {
    const fetched = await fetchRows({ before: cursor.before, order: "desc", limit: pageSize + 1 });
    hasOlder = fetched.length > pageSize;
    rows = fetched.slice(0, pageSize);
    counted = await countRows(PAGE_COUNT_CAP + 1, rows[0]?.id ?? null);
    hasNewer = counted.newer > 0;
  }
  const pageCountIsCapped = counted.total > PAGE_COUNT_CAP;
  const pageCount = Math.max(1, Math.ceil(Math.min(counted.total, PAGE_COUNT_CAP) / pageSize));
  const page = counted.newer > PAGE_COUNT_CAP ? null : Math.floor(counted.newer / pageSize) + 1;
  return {
    rows,
    olderBefore: hasOlder && rows.length > 0 ? rows.at(-1)!.id : null,
    newerAfter: hasNewer && rows.length > 0 ? rows[0]!.id : null,
    page: page !== null && !pageCountIsCapped ? Math.min(page, pageCount) : page,
    pageCount,
    pageCountIsCapped,
  };
}

/** The pager's four links for a page: none where there is nothing further that way. */
export function keysetPageLinks(
  page: Pick<KeysetPage<unknown>, "newerAfter" | "olderBefore">,
  href: (cursor: KeysetCursor) => string,
): { first?: string; previous?: string; next?: string; last?: string } {
  const newer = page.newerAfter !== null;
  const older = page.olderBefore !== null;
  return {
    first: newer ? href({}) : undefined,
    previous: newer ? href({ after: page.newerAfter! }) : undefined,
    next: older ? href({ before: page.olderBefore! }) : undefined,
    last: older ? href({ last: "1" }) : undefined,
  };
}

/** A list's other parameters (its filters), without the cursor: a new filter starts from the newest. */
export function withoutCursor<Params extends KeysetCursor>(params: Params): Omit<Params, keyof KeysetCursor> {
  const rest: Partial<Params> = { ...params };
  delete rest.before;
  delete rest.after;
  delete rest.last;
  return rest as Omit<Params, keyof KeysetCursor>;
}

/** The query string for a cursor, beside a list's other parameters (which keep their order). */
export function keysetQuery(
  params: Record<string, string | number | undefined>,
  cursor: KeysetCursor = {},
): string {
  const merged: Record<string, string | number | undefined> = { ...params, ...cursor };
  const entries = Object.entries(merged).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== "",
  );
  const query = new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString();
  return query ? `?${query}` : "";
}
