"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { Link } from "@/components/link";
import { splitDashboardPath } from "@/lib/environments/dashboard-paths";

// A page joins the navigation when it works; there are no placeholders.
const links = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/balance", label: "Balance" },
  { href: "/dashboard/payouts", label: "Payouts" },
  { href: "/dashboard/reports", label: "Reports" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/refunds", label: "Refunds" },
  { href: "/dashboard/disputes", label: "Disputes" },
  { href: "/dashboard/customers", label: "Customers" },
  { href: "/dashboard/payment-links", label: "Payment links" },
  { href: "/dashboard/events", label: "Events" },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/logs", label: "Logs" },
  { href: "/dashboard/developers", label: "Developers" },
  { href: "/dashboard/team", label: "Team" },
  { href: "/dashboard/settings", label: "Settings" },
];

/**
 * `needsResponse`: the disputes waiting for the merchant's answer, counted beside "Disputes". `prefix`: the URL
 * prefix naming the environment shown (`/live`, `/sandbox/7`), so every link stays in it and says so.
 */
export function NavLinks({ needsResponse = 0, prefix }: { needsResponse?: number; prefix: string }) {
  const { page: pathname } = splitDashboardPath(usePathname());
  // On a phone the links are one row that scrolls sideways (the bar stays short), fading at the right edge to
  // say there is more; bring the current one into view. scrollLeft, not scrollIntoView: the page stays put.
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const current = nav.current?.querySelector<HTMLElement>('[aria-current="page"]');
    if (nav.current && current && nav.current.scrollWidth > nav.current.clientWidth)
      nav.current.scrollLeft = current.offsetLeft - nav.current.clientWidth / 2 + current.offsetWidth / 2;
  }, [pathname]);
  return (
    <nav
      ref={nav}
      aria-label="Main"
      className="-mx-4 flex gap-1 overflow-x-auto pr-10 pl-4 [mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)] [scrollbar-width:none] md:mx-0 md:flex-col md:overflow-visible md:px-0 md:[mask-image:none]"
    >
      {links.map((link) => {
        const active = link.href === "/dashboard" ? pathname === link.href : pathname.startsWith(link.href);
        return (
          <Link
            key={link.href}
            href={`${prefix}${link.href}`}
            aria-current={active ? "page" : undefined}
            className={`relative whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${
              active
                ? "bg-zinc-200 text-zinc-900 dark:bg-zinc-800 dark:text-white"
                : "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white"
            }`}
          >
            {link.label}
            {link.href === "/dashboard/disputes" && needsResponse > 0 ? (
              // The space keeps the accessible name readable: "Disputes 2 need a response". The link is
              // `relative`: its sr-only words stay inside the phone's scrolling row, not past the page's edge.
              <span className="ml-2 rounded-full bg-red-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums">
                <span className="sr-only"> </span>
                {needsResponse}
                <span className="sr-only"> need a response</span>
              </span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
