import type http from "node:http";
import { appOrigin } from "./env";

/** What Next.js may run as a server action: a POST naming one, or a form posted as multipart without script. */
function mayBeServerAction(incoming: http.IncomingMessage): boolean {
  return (
    incoming.method === "POST" &&
    (incoming.headers["next-action"] !== undefined ||
      (incoming.headers["content-type"] ?? "").startsWith("multipart/form-data"))
  );
}

/** The host the browser addressed, as Next.js reads it: the first X-Forwarded-Host, else Host. */
function addressedHost(headers: http.IncomingHttpHeaders): string | undefined {
  const forwarded = headers["x-forwarded-host"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  return first || headers.host;
}

/**
 * A server action posted from another origin (cross-site request forgery) is refused here with a 403.
 * Next.js refuses it too, but by throwing: a 500 and an error in the log for every attempt. Same origin is
 * APP_URL's, or the host the browser addressed, which is what Next.js compares; an action from APP_URL's
 * origin is passed on as addressed to that host, so Next.js agrees behind a proxy that rewrites Host. A
 * request without Origin is passed on, as Next.js passes it (only an old browser or a script sends one).
 */
export function screenServerAction(incoming: http.IncomingMessage, outgoing: http.ServerResponse): boolean {
  const origin = incoming.headers.origin;
  if (origin === undefined || !mayBeServerAction(incoming)) return true;
  if (origin === appOrigin()) {
    incoming.headers["x-forwarded-host"] = new URL(origin).host;
    return true;
  }
  // `Origin: null` (a sandboxed frame, a redirect from elsewhere) parses to no host, and is refused.
  const originHost = URL.parse(origin)?.host;
  if (originHost && originHost === addressedHost(incoming.headers)) return true;
  const body = JSON.stringify({ message: "This action is unauthorized." });
  outgoing.writeHead(403, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  outgoing.end(body);
  return false;
}
