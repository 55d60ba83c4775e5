import { Link } from "@/components/link";
import { buttonClassName } from "./button";

/** Where each of the four links goes; a missing one is shown dimmed (already on the first or last page). */
export type PageLinks = { first?: string; previous?: string; next?: string; last?: string };

/** The four links of a numbered list's page `page` of `pageCount`, each made by `href`. */
export function numberedPageLinks(
  page: number,
  pageCount: number,
  href: (page: number) => string,
): PageLinks {
  return {
    first: page > 1 ? href(1) : undefined,
    previous: page > 1 ? href(page - 1) : undefined,
    next: page < pageCount ? href(page + 1) : undefined,
    last: page < pageCount ? href(pageCount) : undefined,
  };
}

// Narrower buttons below 640 px, so the five parts fit one 390 px row (an extra px-2 would lose to px-3).
const linkClass = buttonClassName("secondary").replace("px-3", "px-2 sm:px-3");
const dimmedClass = `${linkClass} cursor-not-allowed opacity-50`;

function PageLink({ href, children }: { href?: string; children: string }) {
  if (href)
    return (
      <Link href={href} className={linkClass}>
        {children}
      </Link>
    );
  // Not a link at all (nothing to follow), but still announced as one that is unavailable.
  return (
    <span role="link" aria-disabled="true" className={dimmedClass}>
      {children}
    </span>
  );
}

/**
 * The dashboard's one pager: First, Previous, "Page N of M", Next, Last, for numbered (payments) and cursor
 * (logs, deliveries) lists alike. `capped` adds "+" to a count that stopped counting; `page` is null past it
 * ("Page 200+").
 */
export function Pagination({
  label,
  links,
  page,
  pageCount,
  capped = false,
  summary,
}: {
  label: string;
  links: PageLinks;
  page: number | null;
  pageCount: number;
  capped?: boolean;
  summary?: React.ReactNode;
}) {
  const count = `${pageCount.toLocaleString("en-US")}${capped ? "+" : ""}`;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 text-sm">
      {summary ? <p className="text-zinc-600 dark:text-zinc-400">{summary}</p> : null}
      <div className="flex flex-wrap items-center gap-1.5 sm:ml-auto sm:gap-2">
        <PageLink href={links.first}>First</PageLink>
        <PageLink href={links.previous}>Previous</PageLink>
        <span aria-current="page" className="px-1 tabular-nums text-zinc-700 dark:text-zinc-300">
          {page === null ? `Page ${count}` : `Page ${page.toLocaleString("en-US")} of ${count}`}
        </span>
        <PageLink href={links.next}>Next</PageLink>
        <PageLink href={links.last}>Last</PageLink>
      </div>
    </nav>
  );
}
