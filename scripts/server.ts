// `npm run dev` (with --dev) and `npm start`: node:http servers for the whole platform on PORT (3000), one
// per WEB_CONCURRENCY process.
// In production the merchant API (`/api/*` except next-auth's `/api/auth/*`) is answered by lib/api's router
// straight from node:http: Next.js's request pipeline cost more than the API call itself (see BENCHMARKS.md),
// so it is skipped. Everything else (dashboard, sign-in, assets), and in development the API too (through
// app/api/[[...path]], so edits hot-reload), goes to Next.js. The platform boots first: configuration
// check, migrations, then (unless WORKER_MODE=off) the webhook worker and settler.
import http from "node:http";

const dev = process.argv.includes("--dev");
// Before anything reads the environment: .env files are chosen by mode, as `next dev` / `next start` do.
(process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";
await import("./load-env");

// WEB_CONCURRENCY > 1 (one per CPU by default in production on PostgreSQL): this process only forks the
// servers that share the port, and never gets past here. A bad environment is left for startPlatform to report.
const { default: cluster } = await import("node:cluster");
const { runWebCluster, webConcurrency } = await import("@/lib/platform/web-cluster");
let processes = 1;
try {
  if (cluster.isPrimary) processes = webConcurrency(dev);
} catch {}
if (processes > 1) {
  runWebCluster(processes);
  await new Promise<never>(() => {});
}

// Before Next.js loads: the stores its pages enter are turned off while it serves nothing (async-context.ts).
const { frameworkRequestEnded, frameworkRequestStarted, startIdleTimer, trackEnteredStores } =
  await import("@/lib/platform/async-context");
if (!dev) trackEnteredStores();
const { default: next } = await import("next");
const { isMerchantApiPath, serveApiRequest } = await import("@/lib/api/router");
const { logger } = await import("@/lib/platform/logger");
const { operatorRoute } = await import("@/lib/api/operator-routes");
const { CLIENT_IP_HEADER, resolveClientIp } = await import("@/lib/platform/client-ip");
const { getEnv } = await import("@/lib/platform/env");
const { answerClientError, answerExpectationFailed, screenRequest, sendApiResponse, toApiRequest } =
  await import("@/lib/api/node-bridge");
const { inlineBackgroundServices, startPlatform, stopPlatformOnSignals } =
  await import("@/lib/platform/background-services");

const { startRequestLogWriter } = await import("@/lib/logs/request-log");
// The request log's writer first, so it stops last: it writes what it holds after the requests under way.
await startPlatform([startRequestLogWriter, ...inlineBackgroundServices()], "web");
const trustedProxies = getEnv().TRUSTED_PROXIES;

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev, port, dir: process.cwd() });
const handleWithNext = app.getRequestHandler();
await app.prepare();
startIdleTimer();

/**
 * A request for Next.js, counted while under way so the stores it enters stay on until it is done (in
 * development no store is tracked, so the count turns nothing off).
 */
function serveWithNext(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  frameworkRequestStarted();
  response.once("close", frameworkRequestEnded);
  return handleWithNext(request, response);
}

async function serveApi(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  sendApiResponse(response, await serveApiRequest(toApiRequest(request)), request.method);
}

let stopping = false;
// Host is checked by screenRequest (with a JSON answer), not by Node (an empty 400).
const server = http.createServer({ requireHostHeader: false }, (request, response) => {
  // A stopping server answers what is already on a keep-alive connection, then closes it.
  if (stopping) response.setHeader("Connection", "close");
  if (!screenRequest(request, response)) return;
  // Every per-IP limit (logins, sign-ups, the unauthenticated API) reads this one stamp, never the client's headers.
  request.headers[CLIENT_IP_HEADER] = resolveClientIp(
    request.socket.remoteAddress,
    request.headers["x-forwarded-for"],
    trustedProxies,
  );
  const pathname = (request.url ?? "/").split("?", 1)[0]!;
  const operator = operatorRoute(pathname, request.headers.authorization ?? null);
  const served = operator
    ? operator.then((answer) => sendApiResponse(response, answer, request.method))
    : !dev && isMerchantApiPath(pathname)
      ? serveApi(request, response)
      : serveWithNext(request, response);
  served.catch((error: unknown) => {
    logger.error({ err: error }, "Unhandled server error");
    if (!response.headersSent) response.writeHead(500, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ message: "Server Error" }));
  });
});
server.on("clientError", answerClientError);
server.on("checkExpectation", answerExpectationFailed);
server.on("upgrade", (request, socket, head) => void app.getUpgradeHandler()(request, socket, head));
server.once("error", (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === "EADDRINUSE"
      ? `\nPort ${port} is in use by another process; set PORT to use another.\n`
      : error,
  );
  process.exit(1);
});
server.listen(port, () => console.log(`Ready on http://localhost:${port}${dev ? " (development)" : ""}`));

/** How long a stopping server waits for requests under way before it closes the database anyway. */
const DRAIN_TIMEOUT_MS = 10_000;

stopPlatformOnSignals(
  () =>
    new Promise<void>((resolve) => {
      // Stop accepting connections; idle keep-alive ones close now, busy ones once their response is sent.
      stopping = true;
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(resolve, DRAIN_TIMEOUT_MS).unref();
    }),
);
