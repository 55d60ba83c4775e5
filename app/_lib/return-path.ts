import { splitDashboardPath } from "@/lib/environments/dashboard-paths";

/** The header proxy.ts sets to the dashboard path a request asked for (never read as authorization). */
export const REQUESTED_PATH_HEADER = "x-requested-path";

const FALLBACK = "/dashboard";

/**
 * Where to send a merchant after logging in: the dashboard path they asked for, or the dashboard. Only a path
 * on this site under /dashboard is accepted, so a crafted `next` cannot send anyone elsewhere
 * (`//evil.example`, `/\evil.example`, `https://…` and encoded variants all fall back).
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return FALLBACK;
  let url: URL;
  try {
    url = new URL(value, "http://return.invalid");
  } catch {
    return FALLBACK;
  }
  if (url.host !== "return.invalid") return FALLBACK;
  // A path may name its environment first (`/live/dashboard/…`, `/sandbox/7/dashboard/…`).
  const { page } = splitDashboardPath(url.pathname);
  if (page !== FALLBACK && !page.startsWith(`${FALLBACK}/`)) return FALLBACK;
  return `${url.pathname}${url.search}`;
}
