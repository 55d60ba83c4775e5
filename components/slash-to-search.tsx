"use client";

import { useEffect } from "react";

/** "/" anywhere on the page (outside a text field) focuses the page's search box, as on Stripe and GitHub. */
export function SlashToSearch({ targetId }: { targetId: string }) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.metaKey || event.ctrlKey || event.altKey) return;
      const active = document.activeElement;
      if (
        active instanceof HTMLInputElement ||
        active instanceof HTMLTextAreaElement ||
        active instanceof HTMLSelectElement
      )
        return;
      const target = document.getElementById(targetId);
      if (!target) return;
      event.preventDefault();
      target.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [targetId]);
  return null;
}
