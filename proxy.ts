import { NextResponse, type NextRequest } from "next/server";
import { isPayerPath, withPayerPolicy } from "@/app/_lib/payer-csp";
import { REQUESTED_PATH_HEADER } from "@/app/_lib/return-path";
import {
  ENVIRONMENT_COOKIE,
  ENVIRONMENT_HEADER,
  pathIn,
  splitDashboardPath,
} from "@/lib/environments/dashboard-paths";

/**
 * The payer's pages get their Content-Security-Policy with this response's script nonce. A dashboard page gets
 * the path it asked for, so a logged-out visitor can be sent back to it after logging in, and the environment its
 * URL names (lib/environments/dashboard-paths.ts). None of this is authorization: every page and action checks
 * the session itself, and the session checks the environment is the account's.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (isPayerPath(pathname)) return withPayerPolicy(request);
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, requestedPath(request));
  headers.delete(ENVIRONMENT_HEADER);
  const { selector, page } = splitDashboardPath(pathname);
  if (selector) {
    headers.set(ENVIRONMENT_HEADER, selector);
    const url = request.nextUrl.clone();
    url.pathname = page;
    const response = NextResponse.rewrite(url, { request: { headers } });
    // Set only when it changes, and never on a form's post: Next.js takes a cookie set on an action's answer for
    // a change the action made, and renders the whole page again (an open dialog's state lost with it).
    if (request.method === "GET" && request.cookies.get(ENVIRONMENT_COOKIE)?.value !== selector)
      response.cookies.set(ENVIRONMENT_COOKIE, selector, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        maxAge: 400 * 24 * 3600,
      });
    return response;
  }
  // A link or a redirect to an unprefixed page opens in the environment of the page it came from, so two tabs
  // in two environments each stay in their own. With no such page (typed, bookmarked, just logged in) it is served
  // where it is, and the session opens where the user was last: a cookie can outlive the sandbox it names, or be
  // another account's on a shared browser, which only the session can tell.
  const environment = request.method === "GET" ? environmentOfReferrer(request) : null;
  if (environment && pathname.startsWith("/dashboard")) {
    const url = request.nextUrl.clone();
    url.pathname = pathIn(environment, pathname);
    return NextResponse.redirect(url, 307);
  }
  return NextResponse.next({ request: { headers } });
}

/** The page asked for, without the router's cache marker (`_rsc`), which is no part of its address. */
function requestedPath(request: NextRequest): string {
  const params = new URLSearchParams(request.nextUrl.search);
  params.delete("_rsc");
  const search = params.toString();
  return `${request.nextUrl.pathname}${search ? `?${search}` : ""}`;
}

function environmentOfReferrer(request: NextRequest): string | null {
  const referrer = request.headers.get("referer");
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    return url.origin === request.nextUrl.origin ? splitDashboardPath(url.pathname).selector : null;
  } catch {
    return null;
  }
}

export const config = {
  matcher: [
    "/dashboard/:path*",
    "/live/dashboard/:path*",
    "/sandbox/:id/dashboard/:path*",
    "/pay/:path*",
    "/l/:path*",
  ],
};
