import Link from "next/link";
import { requireMerchantSession } from "@/app/_lib/session";
import { AccountMenu } from "./account-menu";
import { NavLinks } from "./nav-links";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await requireMerchantSession();
  return (
    <div className="min-h-screen md:flex">
      <aside className="border-b border-zinc-200 bg-white px-4 py-3 md:w-56 md:shrink-0 md:border-b-0 md:border-r md:py-6 dark:border-zinc-800 dark:bg-zinc-900">
        <Link
          href="/dashboard"
          className="mb-3 block px-3 text-lg font-bold tracking-tight text-indigo-600 md:mb-6 dark:text-indigo-400"
        >
          Payments
        </Link>
        <NavLinks />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 items-center justify-end border-b border-zinc-200 bg-white px-4 dark:border-zinc-800 dark:bg-zinc-900">
          <AccountMenu name={session.name} email={session.email} />
        </header>
        <main className="flex-1 px-4 py-6 md:px-8">{children}</main>
      </div>
    </div>
  );
}
