"use client";

import { usePathname } from "next/navigation";
import { pathIn, sectionOf, splitDashboardPath } from "@/lib/environments/dashboard-paths";

type Choice = { selector: string; name: string };

/**
 * Every page's environment switcher (DESIGN.md, "Live and sandboxes": Live, then each sandbox by name). Choosing
 * one opens the same section there, under a URL that names it: a full load, as the layout (this switcher, the
 * banner, the counts beside the links) is the other environment's too, and a soft navigation keeps layouts.
 */
export function EnvironmentSwitcher({ choices, current }: { choices: Choice[]; current: string }) {
  const { page } = splitDashboardPath(usePathname());
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm md:flex-col md:items-stretch md:gap-1">
      <span className="sr-only md:not-sr-only md:text-xs md:font-medium md:text-zinc-500 md:dark:text-zinc-400">
        Environment
      </span>
      <select
        value={current}
        onChange={(event) => window.location.assign(pathIn(event.target.value, sectionOf(page)))}
        className="w-full min-w-0 max-w-40 truncate rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-sm text-zinc-900 md:max-w-none dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
      >
        {choices.map((choice) => (
          <option key={choice.selector} value={choice.selector}>
            {choice.selector === "live" ? "Live" : `Sandbox: ${choice.name}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A sandbox's banner, above everything and never scrolled away, so test data is never taken for live. */
export function SandboxBanner({ name }: { name: string }) {
  return (
    <section
      aria-label="Sandbox notice"
      className="sticky top-0 z-40 flex h-8 items-center justify-center truncate bg-amber-300 px-4 text-sm font-medium text-amber-950 dark:bg-amber-500 dark:text-black"
    >
      Test data: {name}
    </section>
  );
}
