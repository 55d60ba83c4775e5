import type { Metadata } from "next";
import { Link } from "@/components/link";
import { buttonClassName } from "@/components/ui/button";

export const metadata: Metadata = { title: "Not found" };

/** A missing (or another merchant's) record, or an unknown dashboard path: inside the frame, with a way back. */
export default function DashboardNotFound() {
  return (
    <div className="max-w-lg space-y-3 rounded-lg bg-white p-6 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="text-lg font-semibold">We couldn’t find that page.</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The record may not exist, or it may belong to another account. Check the link, or go back to your
        payments.
      </p>
      <div className="flex gap-2">
        <Link href="/dashboard/payments" className={buttonClassName("primary")}>
          Go to payments
        </Link>
        <Link href="/dashboard" className={buttonClassName("secondary")}>
          Overview
        </Link>
      </div>
    </div>
  );
}
