"use client";

import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { logOut } from "@/app/(login)/actions";

/**
 * The account button and its menu; the menu closes on Escape, a click elsewhere, and navigation. `name` is
 * the person's, or their email when they gave none: the email is then shown once.
 */
export function AccountMenu({ name, email }: { name: string; email: string }) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const pathname = usePathname();
  const [openedOn, setOpenedOn] = useState(pathname);
  // Navigation closes it: a menu opened on another page is closed on this one.
  if (open && openedOn !== pathname) setOpen(false);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          setOpenedOn(pathname);
          setOpen(!open);
        }}
        className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <span
          aria-hidden
          className="flex h-8 w-8 items-center justify-center rounded-full bg-indigo-600 font-semibold text-white"
        >
          {name.slice(0, 1).toUpperCase()}
        </span>
        {/* The button's name is its text: "Account menu for" is read, not shown; on a phone the name is read only. */}
        <span className="sr-only">Account menu for </span>
        <span className="sr-only sm:not-sr-only">
          <span className="block max-w-48 truncate">{name}</span>
        </span>
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute right-0 z-20 mt-2 w-64 rounded-md bg-white p-2 shadow-lg ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
        >
          <div className="px-2 pt-1 pb-2">
            <p className="truncate text-sm font-medium">{name}</p>
            {name === email ? null : (
              <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{email}</p>
            )}
          </div>
          <form action={logOut}>
            <button
              type="submit"
              className="w-full rounded-md px-2 py-2 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              Log out
            </button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
