/** Laravel's resource-collection envelope: `links` and `meta` beside `data`. */
export function paginationEnvelope(requestUrl: string, page: number, perPage: number, total: number, count: number) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const url = (target: number) => {
    const link = new URL(requestUrl);
    link.search = "";
    link.searchParams.set("page", String(target));
    if (perPage !== 10) link.searchParams.set("perPage", String(perPage));
    return link.toString();
  };
  const from = count > 0 ? (page - 1) * perPage + 1 : null;
  return {
    links: {
      first: url(1),
      last: url(lastPage),
      prev: page > 1 ? url(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? url(page + 1) : null,
    },
    meta: { current_page: page, from, last_page: lastPage, per_page: perPage, to: from === null ? null : from + count - 1, total },
  };
}
