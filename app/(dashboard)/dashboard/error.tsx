"use client";

import { Button } from "@/components/ui/button";

export default function DashboardError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div
      role="alert"
      className="max-w-lg space-y-3 rounded-lg bg-white p-6 ring-1 ring-red-200 dark:bg-zinc-900 dark:ring-red-900"
    >
      <h1 className="text-lg font-semibold">Something went wrong loading this page.</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        It has been logged. Try again; if it keeps happening, contact support.
      </p>
      <Button onClick={reset}>Try again</Button>
    </div>
  );
}
