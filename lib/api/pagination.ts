import { validationError, type FieldErrors } from "@/lib/platform/errors";
import { messages } from "@/lib/platform/validation";

/**
 * A query parameter as PHP reads it: the last of repeated values, where `name[]=…` or `name[key]=…` makes it
 * an array (which no scalar rule accepts).
 */
export function queryValue(url: URL, name: string): string | string[] | undefined {
  // Most requests have no query: nothing to decode or walk.
  if (url.search === "") return undefined;
  let value: string | string[] | undefined;
  for (const [key, each] of url.searchParams)
    if (key === name) value = each;
    else if (key.startsWith(`${name}[`)) value = [each];
  return value;
}

/**
 * Refuses a NUL anywhere in the query, naming the parameter as PHP does (`name[…]` is `name`): PostgreSQL
 * cannot take one as text (22021), and no parameter of any route has a use for it. Checked once for every
 * route, before its handler reads any parameter, so a new route or filter cannot forget it.
 */
export function refuseNulInQuery(url: URL): void {
  // URL keeps a NUL percent-encoded in `search`: most requests are passed over without decoding their query.
  if (!url.search.includes("%00")) return;
  const errors: FieldErrors = {};
  for (const [key, value] of url.searchParams) {
    if (!key.includes("\0") && !value.includes("\0")) continue;
    // A NUL in the name itself is left out of the name the message gives.
    const field = key.split("[")[0]!.replaceAll("\0", "") || "query";
    errors[field] ??= [messages.noNul(field)];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** Laravel's resource-collection envelope: `links` and `meta` beside `data`. */
export function paginationEnvelope(
  requestUrl: URL,
  page: number,
  perPage: number,
  total: number,
  count: number,
  /** Filters the links keep (Laravel's `withQueryString()`), e.g. the events list's `type`. */
  filters: Record<string, string | number | undefined> = {},
) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  // The request's own origin and path (already percent-encoded by URL) with only page and perPage.
  const base = `${requestUrl.origin}${requestUrl.pathname}?page=`;
  const kept = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `&${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join("");
  const perPageParameter = `${perPage === 10 ? "" : `&perPage=${perPage}`}${kept}`;
  const from = count > 0 ? (page - 1) * perPage + 1 : null;
  return {
    links: {
      first: `${base}1${perPageParameter}`,
      last: `${base}${lastPage}${perPageParameter}`,
      prev: page > 1 ? `${base}${Math.min(page - 1, lastPage)}${perPageParameter}` : null,
      next: page < lastPage ? `${base}${page + 1}${perPageParameter}` : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      per_page: perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
  };
}
