import { getDb } from "@/db/client";
import { recordApiRequest } from "@/lib/logs/request-log";
import { clientIp } from "@/lib/platform/client-ip";
import { withDeadline, withExtendableDeadline, type ExtendDeadline } from "@/lib/platform/deadline";
import { appOrigin, getEnv } from "@/lib/platform/env";
import { timeOrderedId } from "@/lib/platform/ids";
import { logger } from "@/lib/platform/logger";
import { httpRequestDuration } from "@/lib/platform/metrics";
import { isLiveWriteToken } from "@/lib/tokens/authenticate";
import { API_ERRORS, HttpError, MAX_BODY_BYTES, methodNotAllowedMessage } from "./api-errors";
import { bearerToken } from "./api-route";
import type { Handler, Method, Route } from "./define-route";
import { requestPath } from "./node-bridge";
import { buildOpenApiDocument } from "./openapi";
import { processorWebhookPath, serveProcessorWebhook } from "./processor-webhook-routes";
import { readRequestBody } from "./request-body";
import { errorResponse, jsonResponse, serviceUnavailableResponse } from "./responses";
import { routes } from "./routes";
import type { ApiRequest, ApiResponse } from "./types";

/** Nested functions are not used on this path: tsx (keepNames) names each one with a call when it is created. */
function routed(route: string, response: ApiResponse): { route: string; response: ApiResponse } {
  return { route, response };
}

/** `/api/auth/*` belongs to the dashboard's sign-in (next-auth); every other `/api` path is the REST API. */
export function isMerchantApiPath(pathname: string): boolean {
  return (pathname === "/api" || pathname.startsWith("/api/")) && !pathname.startsWith("/api/auth/");
}

const NO_PARAMS: Record<string, string> = Object.freeze({});
const NO_BODY = Buffer.alloc(0);

/**
 * Path parameters, percent-decoded; undefined when an encoding is malformed or decodes to a NUL, which no id
 * holds (then the path is not found, before any handler could hand it to PostgreSQL).
 */
function decodeParams(groups: Record<string, string>): Record<string, string> | undefined {
  try {
    const params = Object.entries(groups).map(([key, value]): [string, string] => [
      key,
      decodeURIComponent(value),
    ]);
    return params.some(([, value]) => value.includes("\0")) ? undefined : Object.fromEntries(params);
  } catch {
    return undefined;
  }
}

/** A path the router serves: its handler per method, and its name as Laravel gives it in a 405 message. */
type ServedPath = {
  name: string;
  methods: Partial<Record<Method, Handler>>;
  /** A method's larger body limit, where its route declares one. */
  bodyLimits: Partial<Record<Method, number>>;
  /** A method's longer deadline, where its route declares one. */
  deadlines: Partial<Record<Method, number>>;
  allowed: string[];
};

/** The document itself: served beside the routes it describes, and not one of them. */
const OPENAPI_PATH = "/api/openapi.json";
const serveOpenApi: Handler = (_request, _params, url) =>
  Promise.resolve(jsonResponse(200, buildOpenApiDocument(url.origin)));

/**
 * The routes by path: a path without parameters is found in one lookup, before any with them (so
 * `/api/events/stream` is never taken for an event id); those are tried in the list's order.
 */
function servedPaths(list: readonly Route[]) {
  const byPath = new Map<string, ServedPath>();
  const openApi: Pick<Route, "path" | "method" | "serve" | "maxBodyBytes" | "deadlineMs"> = {
    path: OPENAPI_PATH,
    method: "GET",
    serve: serveOpenApi,
  };
  for (const route of [...list, openApi]) {
    const served = byPath.get(route.path) ?? {
      name: route.path.slice(1),
      methods: {},
      bodyLimits: {},
      deadlines: {},
      allowed: [],
    };
    served.methods[route.method] = route.serve;
    if (route.maxBodyBytes) served.bodyLimits[route.method] = route.maxBodyBytes;
    if (route.deadlineMs) served.deadlines[route.method] = route.deadlineMs;
    byPath.set(route.path, served);
  }
  const exact = new Map<string, ServedPath>();
  const templated: Array<{ pattern: RegExp; served: ServedPath }> = [];
  for (const [path, served] of byPath) {
    // The methods as Laravel lists them, HEAD with GET.
    served.allowed = (["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const).filter((method) =>
      method === "HEAD" ? served.methods.GET : served.methods[method],
    );
    if (!path.includes("{")) exact.set(path, served);
    else {
      const source = path.replace(/[.]/g, "\\.").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)");
      templated.push({ pattern: new RegExp(`^${source}$`), served });
    }
  }
  return { exact, templated };
}

const { exact, templated } = servedPaths(routes);

/** The path served at `pathname`, and its parameters (undefined when none is, or its encoding is bad). */
function match(pathname: string): { served: ServedPath; params: Record<string, string> } | undefined {
  const served = exact.get(pathname);
  if (served) return { served, params: NO_PARAMS };
  for (const { pattern, served } of templated) {
    const groups = pattern.exec(pathname)?.groups;
    if (!groups) continue;
    const params = decodeParams(groups);
    return params ? { served, params } : undefined;
  }
  return undefined;
}

/**
 * Dispatches an API request and names the route it matched (for the metrics): HEAD runs GET without the
 * body, an unserved method is a JSON 405 with `Allow` worded as Laravel words it, an unknown path a JSON 404.
 * A trailing slash is ignored, as Laravel does. The body is read first, outside the database deadline: a slow
 * upload is the client's time, not a database outage. A body that may be over 16 KiB (a route with a larger
 * limit) is read only after one read of its token (uploaderIsAllowed).
 */
async function handleApiRequest(request: ApiRequest): Promise<{ route: string; response: ApiResponse }> {
  try {
    const url = URL.parse(request.url);
    // A URL no request should produce: nothing a handler could act on.
    if (!url) return routed("unmatched", jsonResponse(400, { message: "Bad Request" }));
    const pathname = url.pathname.replace(/(?<=.)\/$/, "");
    // The links a handler builds name the route's own path, not this request's spelling of it.
    if (pathname !== url.pathname) url.pathname = pathname;
    const webhook = processorWebhookPath(pathname);
    if (webhook) {
      // It asks the processor before it writes: its bound is the processor's, then the database's.
      const work = serveProcessorWebhook(request, webhook);
      const deadline = getEnv().PROCESSOR_TIMEOUT + apiDeadlineMs();
      return routed("processor webhook", await withDeadline(work, deadline, serviceUnavailableResponse));
    }
    const found = match(pathname);
    if (found) {
      const { served, params } = found;
      if (request.method === "OPTIONS")
        return routed(served.name, {
          status: 204,
          headers: { Allow: [...served.allowed, "OPTIONS"].join(", ") },
          body: null,
        });
      const handler = served.methods[(request.method === "HEAD" ? "GET" : request.method) as Method];
      if (!handler)
        return routed(
          served.name,
          jsonResponse(
            405,
            { message: methodNotAllowedMessage(request.method, served.name, served.allowed) },
            { Allow: served.allowed.join(", ") },
          ),
        );
      const limit = served.bodyLimits[request.method as Method];
      if (request.body && limit && mayExceedDefaultLimit(request)) {
        // A body that may be over every route's 16 KiB is read only for a token that may write (no one else
        // makes the server hold 1 MiB); any other caller gets the answer it would get anyway, the body unread.
        const allowed = await withDeadline(
          uploaderIsAllowed(request),
          apiDeadlineMs(),
          () => undefined,
        ).catch((error: unknown) => ({ error }));
        if (allowed === undefined) return routed(served.name, serviceUnavailableResponse());
        if (typeof allowed === "object") return routed(served.name, errorResponse(allowed.error));
        if (!allowed) {
          const refused = HttpError.of("unauthenticated", { "WWW-Authenticate": "Bearer" });
          const work = handler(request, params, url, refused);
          return routed(served.name, await withDeadline(work, apiDeadlineMs(), serviceUnavailableResponse));
        }
      }
      const body = request.body
        ? await readRequestBody(request, getEnv().API_BODY_TIMEOUT_MS, limit)
        : NO_BODY;
      const deadline = Math.max(apiDeadlineMs(), served.deadlines[request.method as Method] ?? 0);
      const work = (extend: ExtendDeadline) => handler(request, params, url, body, extend);
      return routed(served.name, await withExtendableDeadline(work, deadline, serviceUnavailableResponse));
    }
    return routed("unmatched", jsonResponse(404, { message: API_ERRORS.notFound.message }));
  } catch (error) {
    return routed("unmatched", errorResponse(error));
  }
}

/** A body of no declared length (chunked), or declared over every route's limit. */
function mayExceedDefaultLimit(request: ApiRequest): boolean {
  const declared = request.headers.get("content-length");
  return declared === null || Number(declared) > MAX_BODY_BYTES;
}

/** Whether a request's bearer token authenticates and may write (see isLiveWriteToken). */
async function uploaderIsAllowed(request: ApiRequest): Promise<boolean> {
  const token = bearerToken(request);
  return token !== undefined && isLiveWriteToken(getDb(), token);
}

/**
 * How long an API request's work may take, once its body is read, before it is answered 503
 * (API_DEADLINE_MS, 2 s by default). Normal requests take milliseconds (p99 under 0.25 s at 64 connections);
 * this bounds the wait when the database is unreachable, where postgres.js would otherwise hold queries until
 * it reconnects. Work already sent may still finish: a create answered 503 may exist, which is why creates
 * take an Idempotency-Key.
 */
const apiDeadlineMs = () => getEnv().API_DEADLINE_MS;

/** The path and query of a request's URL, which both servers build on APP_URL's origin (no second parse). */
function pathOf(url: string): string {
  const origin = appOrigin();
  return url.startsWith(origin) ? url.slice(origin.length) : requestPath(url);
}

/**
 * An API request as the servers run it: a request id (`X-Request-Id: req_…`, and `req_id` on each of its log
 * lines: an unexpected error at error level, the access line at debug level), and its metrics.
 */
export async function serveApiRequest(request: ApiRequest): Promise<ApiResponse> {
  const receivedAt = Date.now();
  const requestId = timeOrderedId("req", receivedAt);
  const started = performance.now();
  const { route, response } = await handleApiRequest(request);
  response.headers["X-Request-Id"] = requestId;
  const seconds = (performance.now() - started) / 1000;
  const labels = { route, method: request.method, status: String(response.status) };
  httpRequestDuration.observe(labels, seconds);
  if (response.caller && getEnv().API_REQUEST_LOG)
    recordApiRequest({
      merchantId: response.caller.merchantId,
      tokenId: response.caller.tokenId,
      requestId,
      method: request.method,
      path: pathOf(request.url),
      status: response.status,
      latencyMs: Math.round(seconds * 10_000) / 10,
      clientIp: clientIp(request.headers),
      idempotencyKey: request.headers.get("idempotency-key"),
      responseBody: response.body,
      // The time in its id: the Logs page finds a request id through the (merchant, time) index.
      createdAtMs: receivedAt,
    });
  if (response.error !== undefined)
    logger[response.status === 503 ? "warn" : "error"](
      { req_id: requestId, err: response.error },
      response.status === 503 ? "Database unavailable" : "Unhandled API error",
    );
  // At debug level: one line per request cost the list endpoint a quarter of its throughput at info.
  if (logger.isLevelEnabled("debug"))
    logger.debug(
      {
        req_id: requestId,
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        ms: Math.round(seconds * 10_000) / 10,
      },
      "api request",
    );
  return response;
}
