export default function Loading() {
  return (
    <div role="status" aria-label="Loading payments" className="max-w-6xl animate-pulse space-y-4">
      <div className="h-8 w-40 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-10 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-64 rounded bg-zinc-200 dark:bg-zinc-800" />
    </div>
  );
}
