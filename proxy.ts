import { NextResponse, type NextRequest } from "next/server";
import { REQUESTED_PATH_HEADER } from "@/app/_lib/return-path";

/**
 * Passes the dashboard path a request asked for to the page, so a logged-out visitor can be sent back to it
 * after logging in. This is not authorization: every page and action checks the session itself.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: "/dashboard/:path*" };
