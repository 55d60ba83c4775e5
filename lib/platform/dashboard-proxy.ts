import http from "node:http";

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), which a proxy does not pass on:
 * Node sets its own on each side (keep-alive, chunking).
 */
const HOP_BY_HOP = new Set([
  "connection",
  // Answered (100 Continue) by the API process, which then reads the body it passes on.
  "expect",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/** While the dashboard's process is starting or being replaced. JSON, as every answer under /api is. */
function answerUnavailable(response: http.ServerResponse): void {
  if (response.destroyed) return;
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ message: "Service Unavailable" });
  response.writeHead(503, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": "1",
  });
  response.end(body);
}

/**
 * Only the proxy closes an idle connection to the dashboard: after PROXY_IDLE_MS, while the dashboard keeps one
 * for DASHBOARD_KEEP_ALIVE_MS. With Node's default 5 s on the dashboard's side, a request sent on a connection
 * the dashboard was closing met a reset and was answered 503 (a checkout page, CI's loaded machine, 2026-11-30).
 */
const PROXY_IDLE_MS = 30_000;
const DASHBOARD_KEEP_ALIVE_MS = 10 * 60_000;

/** The dashboard process's server, reached only through dashboardProxy: the proxy closes its idle connections. */
export function keepConnectionsForProxy(server: http.Server): void {
  server.keepAliveTimeout = DASHBOARD_KEEP_ALIVE_MS;
}

/**
 * Hands requests to the dashboard's process (Next.js) over a unix socket, streaming both bodies: the API
 * processes never load Next.js (see scripts/server.ts). The request keeps its headers, the client-IP stamp
 * included, so the dashboard sees what the API process saw.
 */
export function dashboardProxy(
  socketPath: string,
  idleMs = PROXY_IDLE_MS,
): (request: http.IncomingMessage, response: http.ServerResponse) => void {
  // `timeout` closes a free socket idle that long; one in use is not timed out by it.
  const agent = new http.Agent({ keepAlive: true, timeout: idleMs });
  return (request, response) => {
    const upstream = http.request(
      { agent, socketPath, method: request.method, path: request.url, headers: endToEnd(request.headers) },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(response);
        answer.once("error", () => response.destroy());
      },
    );
    upstream.once("error", () => answerUnavailable(response));
    // A client gone before the answer was sent: the dashboard stops working for it. An answer sent before the
    // whole body was (a refusal): the rest is not passed on, and this upstream connection is not reused.
    response.once("close", () => {
      if (!response.writableFinished || !request.complete) upstream.destroy();
    });
    request.pipe(upstream);
  };
}
