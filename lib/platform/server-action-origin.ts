import type http from "node:http";
import { isTrustedPeer, type TrustedProxies } from "./client-ip";
import { appOrigin } from "./env";

/** A payer's page, or an endpoint under one: `/pay/{token}/…`, `/l/{slug}/…`. */
const isPayerPage = (url: string | undefined) => /^\/(pay|l)\//.test(url ?? "");

/**
 * What only this site's own pages may post: a server action (a POST naming one, or a form posted as multipart
 * without script), and a payer's card form at a checkout page or a payment link (`/pay/…`, `/l/…`).
 */
function mayBeServerAction(incoming: http.IncomingMessage): boolean {
  return (
    incoming.method === "POST" &&
    (incoming.headers["next-action"] !== undefined ||
      (incoming.headers["content-type"] ?? "").startsWith("multipart/form-data") ||
      isPayerPage(incoming.url))
  );
}

/** The last value of a header a proxy may have appended to (`a, b`): the one the nearest proxy wrote. */
function lastValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(",") : header;
  return joined?.split(",").at(-1)?.trim() || undefined;
}

/**
 * The host a trusted proxy says the browser addressed (its X-Forwarded-Host, else the Host it passed on);
 * undefined when the peer is not a trusted proxy: any client can set both headers.
 */
function proxiedHost(
  incoming: http.IncomingMessage,
  trusted: TrustedProxies | undefined,
): string | undefined {
  if (!isTrustedPeer(incoming.socket.remoteAddress, trusted)) return undefined;
  return lastValue(incoming.headers["x-forwarded-host"]) ?? incoming.headers.host;
}

/**
 * A server action runs only when posted from APP_URL's origin, or from the host a trusted proxy says the
 * browser addressed (TRUSTED_PROXIES). Anything else, no Origin included, is cross-site request forgery, refused
 * here with a 403: Next.js refuses it by throwing, a 500 and an error in the log for every attempt. The action
 * is passed on as addressed to that origin's host, so Next.js, which compares Origin with X-Forwarded-Host or
 * Host, agrees whatever the client sent in those headers.
 */
export function screenServerAction(
  incoming: http.IncomingMessage,
  outgoing: http.ServerResponse,
  trusted: TrustedProxies | undefined,
): boolean {
  if (!mayBeServerAction(incoming)) return true;
  const origin = incoming.headers.origin;
  // `Origin: null` (a sandboxed frame, a redirect from elsewhere) parses to no host, and is refused.
  const originHost = origin === undefined ? undefined : URL.parse(origin)?.host;
  if (originHost && (origin === appOrigin() || originHost === proxiedHost(incoming, trusted))) {
    incoming.headers["x-forwarded-host"] = originHost;
    return true;
  }
  // A payer's page sends no referrer (a checkout's URL holds the token), so a browser posts its form without
  // script with `Origin: null`; Fetch Metadata, which no page can set, says whether it came from this site.
  if (isPayerPage(incoming.url) && origin === "null")
    if (incoming.headers["sec-fetch-site"] === "same-origin") return true;
  const body = JSON.stringify({ message: "This action is unauthorized." });
  outgoing.writeHead(403, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  outgoing.end(body);
  return false;
}
