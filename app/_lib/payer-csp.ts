import { NextResponse, type NextRequest } from "next/server";

/** The payer's pages: a checkout page, a payment link, and anything under them. */
export function isPayerPath(pathname: string): boolean {
  return pathname.startsWith("/pay/") || pathname.startsWith("/l/");
}

/**
 * A payer's page types a card number, so it runs only this page's scripts: a fresh nonce per response, which
 * Next.js reads from the request's policy and puts on every script it renders ('strict-dynamic' lets those load
 * the page's chunks). Never framed. No `form-action`: the form posted without script is sent on to the
 * merchant's return_url, which Chromium would hold to it.
 */
export function withPayerPolicy(request: NextRequest): NextResponse {
  const nonce = btoa(crypto.randomUUID());
  // React reads error stacks with eval in development only.
  const evalInDev = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  const policy = [
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${evalInDev}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}
