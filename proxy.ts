import { NextResponse, type NextRequest } from "next/server";
import { isPayerPath, withPayerPolicy } from "@/app/_lib/payer-csp";
import { REQUESTED_PATH_HEADER } from "@/app/_lib/return-path";

/**
 * The payer's pages get their Content-Security-Policy with this response's script nonce. A dashboard page gets
 * the path it asked for, so a logged-out visitor can be sent back to it after logging in. This is not
 * authorization: every page and action checks the session itself.
 */
export function proxy(request: NextRequest) {
  if (isPayerPath(request.nextUrl.pathname)) return withPayerPolicy(request);
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/dashboard/:path*", "/pay/:path*", "/l/:path*"] };
