import { Link } from "@/components/link";

/** The dashboard's plain table: a scrollable card, a caption for screen readers, and an empty state. */
export function SimpleTable({
  caption,
  headings,
  empty,
  children,
  className = "",
}: {
  caption: string;
  className?: string;
  /**
   * Column headings; an empty string is an unlabelled (actions) column, named for screen readers only. A
   * money column is right-aligned, heading and cells alike: `{ label, align: "right" }`.
   */
  headings: Array<string | { label: string; align: "right" }>;
  empty: string;
  children: React.ReactNode[];
}) {
  return (
    // A table wider than a phone scrolls sideways; keyboard users reach the scroll through this stop.
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={`relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800 ${className}`}
    >
      <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-left text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
          <tr>
            {headings.map((heading, index) => (
              <th
                key={index}
                scope="col"
                className={`px-4 py-3 font-medium ${typeof heading === "string" ? "" : "text-right"}`}
              >
                {typeof heading === "string"
                  ? heading || <span className="sr-only">Actions</span>
                  : heading.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {children.length === 0 ? (
            <tr>
              <td
                colSpan={headings.length}
                className="px-4 py-8 text-center text-zinc-600 dark:text-zinc-400"
              >
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

/** "← Payments": the way back from a detail page. */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="text-sm text-indigo-600 hover:underline dark:text-indigo-400">
      ← {children}
    </Link>
  );
}
