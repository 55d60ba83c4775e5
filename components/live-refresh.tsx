"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useDashboardHref } from "./link";

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

/** How often a self-updating page asks whether anything it shows has changed. */
const VERSION_POLL_MS = 3000;

/**
 * Keeps a page current without a reload: polls `/dashboard/live` for the scope's version (one small query)
 * and renders the page again from the server only when it differs from the one the page was rendered with
 * (a new event, delivery or capture, an attempt, a transition). Paused while the tab is hidden.
 */
export function LiveUpdates({ scope, version }: { scope: string; version: string }) {
  const router = useRouter();
  // Asked in the page's own environment (an unprefixed poll would be redirected there each time).
  const endpoint = useDashboardHref()("/dashboard/live");
  useEffect(() => {
    let seen = version;
    let stopped = false;
    const check = async () => {
      if (document.visibilityState !== "visible") return;
      const response = await fetch(`${endpoint}?scope=${encodeURIComponent(scope)}`, {
        cache: "no-store",
      }).catch(() => null);
      if (!response?.ok || stopped) return;
      const { version: now } = (await response.json()) as { version: string };
      if (now !== seen && !stopped) {
        seen = now;
        router.refresh();
      }
    };
    const timer = setInterval(() => void check(), VERSION_POLL_MS);
    const onVisible = () => void check();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [scope, version, router, endpoint]);
  return null;
}
