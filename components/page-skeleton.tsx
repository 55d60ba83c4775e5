/**
 * A route's loading state, shaped like its page: one grey block per part of the page (Tailwind size classes),
 * shown at once on navigation while the server renders the real thing.
 */
export function PageSkeleton({ label, blocks }: { label: string; blocks: string[] }) {
  return (
    <div role="status" aria-label={label} className="max-w-6xl animate-pulse space-y-4">
      {blocks.map((size, index) => (
        <div key={index} className={`rounded bg-zinc-200 dark:bg-zinc-800 ${size}`} />
      ))}
    </div>
  );
}
