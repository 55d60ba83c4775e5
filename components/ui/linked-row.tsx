"use client";

import { useRouter } from "next/navigation";
import { useDashboardHref } from "@/components/link";

/**
 * A list's row that opens its object when clicked anywhere, as a payment's row does; the row's own link stays
 * the way in for keyboards and screen readers, and a click on any link or button inside keeps its own target.
 */
export function LinkedRow({
  href,
  children,
  ...rest
}: { href: string | undefined; children: React.ReactNode } & React.HTMLAttributes<HTMLTableRowElement>) {
  const router = useRouter();
  const inEnvironment = useDashboardHref();
  if (href === undefined) return <tr {...rest}>{children}</tr>;
  return (
    <tr
      {...rest}
      className="cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
      onClick={(event) => {
        if (!(event.target instanceof Element) || !event.target.closest("a, button, input, select, label"))
          router.push(inEnvironment(href));
      }}
    >
      {children}
    </tr>
  );
}
