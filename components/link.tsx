"use client";

import NextLink from "next/link";
import { usePathname, useRouter } from "next/navigation";
import type { ComponentProps } from "react";
import { pathIn, splitDashboardPath } from "@/lib/environments/dashboard-paths";

const isDashboardPage = (href: string) => /^\/dashboard(?:[/?#]|$)/.test(href);

/** For code that navigates by itself (`router.push`): a dashboard path in the environment the page's address names. */
export function useDashboardHref(): (href: string) => string {
  const { selector } = splitDashboardPath(usePathname());
  return (href) => (selector && isDashboardPage(href) ? pathIn(selector, href) : href);
}

/**
 * The one link of the app, next/link with two habits:
 * - On a page whose address names its environment (`/sandbox/7/dashboard/…`), a link to a dashboard page names it
 *   too, so following it stays there and a copied link opens there.
 * - It prefetches on intent (hover or focus), not on sight. Every dashboard page is dynamic, so a link
 *   prefetched on sight is a server render with its session and queries: a payments list has 25 rows and 16
 *   navigation links, and each view of it set off some 40 renders nobody asked for.
 */
export function Link({ href, prefetch, onMouseEnter, onFocus, ...props }: ComponentProps<typeof NextLink>) {
  const router = useRouter();
  const inEnvironment = useDashboardHref();
  const target = typeof href === "string" ? inEnvironment(href) : href;
  const prefetchOnIntent = () => {
    if (prefetch !== false && typeof target === "string" && target.startsWith("/")) router.prefetch(target);
  };
  return (
    <NextLink
      href={target}
      prefetch={false}
      onMouseEnter={(event) => {
        prefetchOnIntent();
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        prefetchOnIntent();
        onFocus?.(event);
      }}
      {...props}
    />
  );
}
