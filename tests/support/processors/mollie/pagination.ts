// Mollie's v2 list shape (docs: "Pagination in v2"): `count`, `_embedded.<name>`, and `_links` with self,
// previous and next (null when there is none) and documentation. `from` names the first item of the page (it is
// included), `limit` is 1–250, 50 by default.
import { apiError, docLink, halLink, type ApiResponse } from "./common";

export function listPage<T extends { id: string }>(options: {
  items: T[];
  query: URLSearchParams;
  base: string;
  path: string;
  name: string;
  documentation: string;
  render: (item: T) => unknown;
}): ApiResponse {
  const { items, query, base, path, name } = options;
  const limitText = query.get("limit");
  const limit = limitText === null ? 50 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 250) {
    return apiError(400, "The limit must be a number between 1 and 250", "limit");
  }
  const from = query.get("from");
  const start = from === null ? 0 : items.findIndex((item) => item.id === from);
  if (start < 0)
    return apiError(400, `The 'from' parameter ${from} does not refer to an existing item`, "from");
  const page = items.slice(start, start + limit);
  const link = (fromId: string | undefined) => {
    if (fromId === undefined) return null;
    const params = new URLSearchParams(query);
    params.set("from", fromId);
    params.set("limit", String(limit));
    return halLink(`${base}${path}?${params.toString()}`);
  };
  const selfParams = query.toString();
  return {
    status: 200,
    body: {
      count: page.length,
      _embedded: { [name]: page.map(options.render) },
      _links: {
        self: halLink(`${base}${path}${selfParams ? `?${selfParams}` : ""}`),
        previous: start > 0 ? link(items[Math.max(0, start - limit)]?.id) : null,
        next: link(items[start + limit]?.id),
        documentation: docLink(options.documentation),
      },
    },
  };
}
