import type http from "node:http";

/** True when a path's percent-encoding cannot be decoded (`/dashboard/%ZZ`): it names no page. */
function isMalformed(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** A plain-text refusal of a page request, before Next.js; false: the request goes no further. */
function refuse(response: http.ServerResponse, status: number, body: string): false {
  response.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
  return false;
}

/**
 * Answers a dashboard path that is not valid percent-encoding with a 400 before Next.js, which throws on it
 * and answers a 500 in plain text with an error logged. True when the request may go on.
 */
export function screenMalformedPath(pathname: string, response: http.ServerResponse): boolean {
  if (!isMalformed(pathname)) return true;
  return refuse(response, 400, "Bad Request: the address is not valid URL encoding.\n");
}

/** The longest page address the dashboard takes: more is no link the dashboard makes (8 KiB, as nginx's default). */
const MAX_PAGE_URL_BYTES = 8192;

/**
 * A page address over 8 KiB is answered 414 at once: handed to the dashboard, it waited out the request
 * timeout (88 s) and ended in a 408. Returns whether the request may go on.
 */
export function screenLongUrl(url: string, response: http.ServerResponse): boolean {
  if (Buffer.byteLength(url) <= MAX_PAGE_URL_BYTES) return true;
  return refuse(response, 414, "URI Too Long: a page address is at most 8 KiB.\n");
}
