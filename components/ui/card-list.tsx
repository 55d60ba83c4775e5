/**
 * A table's phone layout: below 640 px each row becomes a card (the table beside it is `hidden sm:block`),
 * with the same empty state.
 */
export function CardList({
  label,
  empty,
  children,
}: {
  label: string;
  empty: string;
  children: React.ReactNode[];
}) {
  return (
    <ul aria-label={label} className="space-y-3 sm:hidden">
      {children.length === 0 ? (
        <li className="rounded-lg bg-white px-4 py-8 text-center text-sm text-zinc-600 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-400 dark:ring-zinc-800">
          {empty}
        </li>
      ) : (
        children
      )}
    </ul>
  );
}

export function Card({ children }: { children: React.ReactNode }) {
  return (
    <li className="space-y-2 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      {children}
    </li>
  );
}
