// `npm run dev` (with --dev) and `npm start`: the whole platform on PORT (3000).
// In production the merchant API (`/api/*` except next-auth's `/api/auth/*`) is answered by lib/api's router
// straight from node:http: Next.js's request pipeline cost more than the API call itself (see BENCHMARKS.md).
// Everything else (dashboard, sign-in, assets), and in development the API too (through app/api/[[...path]],
// so edits hot-reload), goes to Next.js. On PostgreSQL in production, Next.js runs in a process of its own
// and the API processes hand it those requests (lib/platform/web-cluster.ts says why). Each process boots
// the platform first: configuration check, migrations, then (unless WORKER_MODE=off) the webhook worker and
// settler, in the processes that serve the API, which then open their database pool.
import { chmodSync, rmSync } from "node:fs";
import http from "node:http";
import type { Duplex } from "node:stream";

const dev = process.argv.includes("--dev");
// Before anything reads the environment: .env files are chosen by mode, as `next dev` / `next start` do.
(process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";
await import("./load-env");
// In development every mail is kept as a file to read (README, "Mail"), beside the embedded database's data.
if (dev) process.env.MAIL_OUTBOX_DIR ??= ".data/outbox";

// On PostgreSQL in production this process only forks the servers, and never gets past here.
const { default: cluster } = await import("node:cluster");
const { apiProcessCount, dashboardSocket, DASHBOARD_LISTENING, runWebCluster, serverRole } =
  await import("@/lib/platform/web-cluster");
const apiProcesses = cluster.isPrimary ? apiProcessCount(dev) : undefined;
if (apiProcesses !== undefined) {
  runWebCluster(apiProcesses);
  await new Promise<never>(() => {});
}
const role = serverRole();
// Before the rest loads: a process that serves the API beside Next.js (PGlite's single process) turns the
// stores Next.js enters off while it serves nothing (lib/platform/async-context.ts).
const tracksStores = role === "whole" && !dev;
if (tracksStores) (await import("@/lib/platform/async-context")).trackEnteredStores();

if (role !== "whole") {
  // A scrape of any process reads every process's metrics, gathered by the primary.
  const { shareMetricsWithPrimary } = await import("@/lib/platform/cluster-metrics");
  shareMetricsWithPrimary((await import("@/lib/platform/metrics")).metricsRegistry);
}
const { logger } = await import("@/lib/platform/logger");
const { getEnv } = await import("@/lib/platform/env");
const { startPlatform, stopPlatformOnSignals } = await import("@/lib/platform/background-services");
const { inlineBackgroundServices } = await import("@/lib/worker/services");
const { startRequestLogWriter } = await import("@/lib/logs/request-log");
// The request log's writer first, so it stops last: it writes what it holds after the requests under way.
await startPlatform(
  role === "dashboard" ? [] : [startRequestLogWriter, ...inlineBackgroundServices()],
  "web",
);

// The pool's connections opened before the first request (db/pool.ts, `warmPool`), in the processes that take
// the API's bursts. Not fatal: a request opens what it needs, as it did before.
const { warmDatabasePool } = await import("@/db/client");
if (role !== "dashboard")
  await warmDatabasePool().catch((error: unknown) =>
    logger.warn({ err: error }, "The database pool was not opened ahead of the first requests"),
  );

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void | Promise<void>;
const port = getEnv().PORT;
const nextHandler =
  role === "api" ? undefined : await (await import("./next-handler")).startNext(dev, port, tracksStores);
/** What serves the dashboard's requests (and in development the API's) in this process. */
const serveDashboard: Handler =
  nextHandler?.serve ?? (await import("@/lib/platform/dashboard-proxy")).dashboardProxy(dashboardSocket());

function answerServerError(response: http.ServerResponse, error: unknown): void {
  logger.error({ err: error }, "Unhandled server error");
  if (!response.headersSent) response.writeHead(500, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ message: "Server Error" }));
}

/** Runs a request's handler; whatever it throws or rejects with is logged and answered with a JSON 500. */
function serveSafely(handler: Handler, request: http.IncomingMessage, response: http.ServerResponse): void {
  try {
    handler(request, response)?.catch((error: unknown) => answerServerError(response, error));
  } catch (error) {
    answerServerError(response, error);
  }
}

const { isMerchantApiPath, serveApiRequest } = await import("@/lib/api/router");
const { operatorRoute } = await import("@/lib/api/operator-routes");
const { CLIENT_IP_HEADER, resolveClientIp } = await import("@/lib/platform/client-ip");
const {
  answerClientError,
  answerConnect,
  answerExpectationFailed,
  screenPageBody,
  screenRequest,
  sendApiResponse,
  toApiRequest,
} = await import("@/lib/api/node-bridge");
const { authRouteAnswer } = await import("@/lib/api/auth-routes");
const { screenServerAction } = await import("@/lib/platform/server-action-origin");
const { screenLongUrl, screenMalformedPath } = await import("@/lib/platform/malformed-path");
const trustedProxies = getEnv().TRUSTED_PROXIES;

async function serveApi(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  sendApiResponse(response, await serveApiRequest(toApiRequest(request)), request.method);
}

/** What a client reaches on PORT: the API and operator routes here, the rest to the dashboard. */
function serveFront(request: http.IncomingMessage, response: http.ServerResponse): void {
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
  // next-auth's paths answer JSON, like the rest of /api, where next-auth would answer otherwise.
  const auth = authRouteAnswer(request.method, request.url ?? "/");
  if (operator)
    serveSafely(async () => sendApiResponse(response, await operator, request.method), request, response);
  else if (auth) sendApiResponse(response, auth, request.method);
  else if (isMerchantApiPath(pathname)) serveSafely(dev ? serveDashboard : serveApi, request, response);
  else if (
    screenLongUrl(request.url ?? "/", response) &&
    screenMalformedPath(pathname, response) &&
    screenServerAction(request, response, trustedProxies) &&
    screenPageBody(request, response)
  )
    serveSafely(serveDashboard, request, response);
}

let stopping = false;
/** How long an idle client connection is kept (Node's default is 5 s). */
const CLIENT_KEEP_ALIVE_MS = 75_000;
const server = http.createServer(
  // Host is checked by screenRequest (with a JSON answer), not by Node (an empty 400).
  { requireHostHeader: false },
  role === "dashboard"
    ? // Reached only through the API processes, which have screened the request and stamped its client.
      (request, response) => serveSafely(serveDashboard, request, response)
    : serveFront,
);
if (role !== "dashboard") {
  // Clients pool connections longer than Node's 5 s (Go 90 s, browsers, Python's requests): the server must
  // not be the side that closes first, or their next request meets a reset. Longer than common clients' and
  // load balancers' idle times (AWS's 60 s), so they close first.
  server.keepAliveTimeout = CLIENT_KEEP_ALIVE_MS;
  server.on("clientError", answerClientError);
  server.on("checkExpectation", answerExpectationFailed);
  // Without a listener Node closes a CONNECT's connection without an answer.
  server.on("connect", answerConnect);
}
// Next.js's development server takes WebSockets (hot reload). Without a listener, Node hands an upgrade
// request on as an ordinary one, which an API process passes to the dashboard like any other.
if (nextHandler)
  server.on("upgrade", (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    void nextHandler.upgrade(request, socket, head);
  });

server.once("error", (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === "EADDRINUSE"
      ? `\nPort ${port} is in use by another process; set PORT to use another.\n`
      : error,
  );
  process.exit(1);
});
/** Every open connection, however it arrived: a stopping server waits for them. */
const connections = new Set<Duplex>();
server.on("connection", (socket: Duplex) => {
  connections.add(socket);
  socket.once("close", () => connections.delete(socket));
});
/** An API process takes the connections its primary accepts, and never listens itself. */
let handed: { stopTaking: () => void } | undefined;
if (role === "api") {
  handed = (await import("@/lib/platform/connection-dispatcher")).serveHandedConnections(server);
} else if (role === "dashboard") {
  const socket = dashboardSocket();
  // Left by a dashboard process that died; only this machine's processes of this server can connect.
  rmSync(socket, { force: true });
  (await import("@/lib/platform/dashboard-proxy")).keepConnectionsForProxy(server);
  server.listen({ path: socket, exclusive: true }, () => {
    chmodSync(socket, 0o600);
    process.send?.(DASHBOARD_LISTENING);
  });
} else {
  server.listen(port, () => console.log(`Ready on http://localhost:${port}${dev ? " (development)" : ""}`));
}

/** How long a stopping server waits for requests under way before it closes the database anyway. */
const DRAIN_TIMEOUT_MS = 10_000;

const { closeEventStreams } = await import("@/lib/events/event-stream");
stopPlatformOnSignals(
  () =>
    new Promise<void>((resolve) => {
      // Stop accepting connections; idle keep-alive ones close now, busy ones once their response is sent.
      // Event streams end now: their clients reconnect (to another process) with Last-Event-ID.
      stopping = true;
      handed?.stopTaking();
      closeEventStreams();
      if (server.listening) server.close();
      server.closeIdleConnections();
      const drained = setInterval(() => {
        if (connections.size === 0) resolve();
      }, 50);
      setTimeout(resolve, DRAIN_TIMEOUT_MS).unref();
      drained.unref();
    }),
);
