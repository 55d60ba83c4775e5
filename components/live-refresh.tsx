"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** How often a page showing pending work asks the server for fresh data. */
const REFRESH_INTERVAL_MS = 2000;

/**
 * Re-renders the page from the server while it shows pending work (a payment awaiting settlement, a delivery
 * awaiting its next attempt). It stops once the server renders the page with nothing pending, and while the
 * tab is hidden; client state (open dialogs, typed text) survives each refresh.
 */
export function LiveRefresh({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const refreshIfVisible = () => {
      if (document.visibilityState === "visible") router.refresh();
    };
    const timer = setInterval(refreshIfVisible, REFRESH_INTERVAL_MS);
    document.addEventListener("visibilitychange", refreshIfVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refreshIfVisible);
    };
  }, [active, router]);
  return null;
}
