import type { Executor } from "@/db/client";
import { pageQuerySchema } from "@/lib/platform/list-query";
import { defineRoute, type Route } from "./define-route";
import { pagedResponse, ref, validationErrorResponse } from "./openapi-parts";
import { paginationEnvelope } from "./pagination";
import { jsonResponse } from "./responses";

/**
 * `GET` of a merchant's list that reads only `page` and `perPage`, newest first in Laravel's envelope, read
 * from a replica when one has caught up: the one shape of customers, payment links and payouts.
 */
export function pagedListRoute<Path extends string>(declaration: {
  path: Path;
  summary: string;
  /** What a page holds ("payouts") and the component each item is. */
  items: string;
  schema: string;
  list: (
    db: Executor,
    merchantId: number,
    page: number,
    perPage: number,
  ) => Promise<{ items: unknown[]; total: number }>;
}): Route {
  return defineRoute({
    method: "GET",
    path: declaration.path,
    scope: "read",
    summary: declaration.summary,
    query: pageQuerySchema,
    responses: {
      200: pagedResponse(`A page of ${declaration.items}.`, ref(declaration.schema)),
      422: validationErrorResponse("Bad page or perPage."),
    },
    handler: async ({ read, merchantId, url, query: { page, perPage } }) => {
      const { items, total } = await read((db) => declaration.list(db, merchantId, page, perPage));
      return jsonResponse(200, {
        data: items,
        ...paginationEnvelope(url, page, perPage, total, items.length),
      });
    },
  });
}
