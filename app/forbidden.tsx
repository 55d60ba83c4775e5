import type { Metadata } from "next";
import { Link } from "@/components/link";
import { buttonClassName } from "@/components/ui/button";

export const metadata: Metadata = { title: "Forbidden" };

/** What forbidden() renders, with status 403: the page exists, and this member's role may not see it. */
export default function Forbidden() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md space-y-3 text-center">
        <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">403</p>
        <h1 className="text-xl font-semibold">Only an owner can see this page.</h1>
        <Link href="/dashboard" className={buttonClassName("primary")}>
          Go to the dashboard
        </Link>
      </div>
    </main>
  );
}
