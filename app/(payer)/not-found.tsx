import type { Metadata } from "next";

export const metadata: Metadata = { title: "Payment page not found" };

/**
 * A payer's 404 (an unknown, mistyped or cut-off payment page or link): a payer has no account here, so no way
 * into the dashboard, only what to do next.
 */
export default function PayerNotFound() {
  return (
    <div className="space-y-3 rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="text-xl font-semibold">This payment page doesn’t exist.</h1>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        The link may be mistyped or incomplete. Check that you copied all of it, or ask the business that sent
        it for a new one.
      </p>
    </div>
  );
}
