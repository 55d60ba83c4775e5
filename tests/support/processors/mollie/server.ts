// The HTTPS server: the v2 API under /v2/ (Bearer API keys, JSON or form bodies, HAL JSON answers, idempotency and
// ordered faults), and the hosted pages beside it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import { getBalance, listBalances, listBalanceTransactions } from "./balances";
import { apiError, HAL, isApiResponse, isRecord, type ApiResponse } from "./common";
import type { RouteContext } from "./context";
import { answerFault, SLOW_MS, type Faults } from "./faults";
import { serveHostedPage } from "./hosted-page";
import type { IdempotencyCache } from "./idempotency";
import type { Lifecycle } from "./lifecycle";
import { getMethod, listMethods } from "./methods";
import { cancelPayment, createPayment, getPayment, listPayments } from "./payments";
import { cancelRefund, createRefund, getRefund, listAllRefunds, listPaymentRefunds } from "./refunds";
import type { Store } from "./store";

export interface RequestLogEntry {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  at: Date;
}

/** `test_` or `live_` and 30 alphanumerics (docs.mollie.com/overview/authentication). */
export const API_KEY = /^(test|live)_[A-Za-z0-9]{30}$/;
const BODY_LIMIT = 1024 * 1024;

type Handler = (ctx: RouteContext, ...params: string[]) => ApiResponse;
const ROUTES: { pattern: RegExp; methods: Record<string, Handler> }[] = [
  { pattern: /^\/v2\/methods$/, methods: { GET: listMethods } },
  { pattern: /^\/v2\/methods\/([^/]+)$/, methods: { GET: getMethod } },
  { pattern: /^\/v2\/payments$/, methods: { POST: createPayment, GET: listPayments } },
  { pattern: /^\/v2\/payments\/([^/]+)$/, methods: { GET: getPayment, DELETE: cancelPayment } },
  { pattern: /^\/v2\/payments\/([^/]+)\/refunds$/, methods: { POST: createRefund, GET: listPaymentRefunds } },
  {
    pattern: /^\/v2\/payments\/([^/]+)\/refunds\/([^/]+)$/,
    methods: { GET: getRefund, DELETE: cancelRefund },
  },
  { pattern: /^\/v2\/refunds$/, methods: { GET: listAllRefunds } },
  { pattern: /^\/v2\/balances$/, methods: { GET: listBalances } },
  { pattern: /^\/v2\/balances\/([^/]+)$/, methods: { GET: getBalance } },
  { pattern: /^\/v2\/balances\/([^/]+)\/transactions$/, methods: { GET: listBalanceTransactions } },
];

export interface ServerDeps {
  tls: { key: string; cert: string };
  store: Store;
  lifecycle: Lifecycle;
  faults: Faults;
  idempotency: IdempotencyCache;
  requests: RequestLogEntry[];
  base: () => string;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Form bodies as in the reference's curl examples: `amount[currency]=EUR&amount[value]=10.00`. */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const nested = /^([^[]+)\[([^\]]+)\]$/.exec(name);
    if (nested?.[1] && nested[2]) {
      const inner = isRecord(out[nested[1]]) ? (out[nested[1]] as Record<string, unknown>) : {};
      inner[nested[2]] = value;
      out[nested[1]] = inner;
    } else out[name] = value;
  }
  return out;
}

function parseBody(req: IncomingMessage, text: string): Record<string, unknown> | ApiResponse {
  if (req.method !== "POST" && req.method !== "PATCH") return {};
  if (text.trim() === "") return {};
  if ((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded"))
    return parseForm(text);
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isRecord(parsed)) return parsed;
  } catch {
    // answered below
  }
  return apiError(400, "The request body could not be parsed as a JSON object");
}

function send(res: ServerResponse, response: ApiResponse): void {
  if (res.destroyed || res.headersSent) return;
  if (response.status === 204) {
    res.writeHead(204, response.headers).end();
    return;
  }
  res.writeHead(response.status, { "Content-Type": HAL, ...response.headers });
  res.end(JSON.stringify(response.body));
}

function api(deps: ServerDeps, req: IncomingMessage, url: URL, text: string): ApiResponse {
  const method = req.method ?? "GET";
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  const account = bearer !== undefined && API_KEY.test(bearer) ? deps.store.accounts.get(bearer) : undefined;
  if (!account) return apiError(401, "Missing authentication, or failed to authenticate");
  const route = ROUTES.map((r) => ({ r, match: r.pattern.exec(url.pathname) })).find((found) => found.match);
  if (!route?.match) return apiError(404, "The requested resource does not exist");
  const handler = route.r.methods[method];
  if (!handler) {
    return apiError(405, `The method ${method} is not allowed on this resource`, undefined, {
      Allow: Object.keys(route.r.methods).join(", "),
    });
  }
  const body = parseBody(req, text);
  if (isApiResponse(body)) return body;
  const ctx: RouteContext = {
    account,
    store: deps.store,
    lifecycle: deps.lifecycle,
    base: deps.base(),
    query: url.searchParams,
    body,
  };
  const key = method === "POST" ? headerValue(req, "idempotency-key") : undefined;
  if (key === undefined) return handler(ctx, ...route.match.slice(1).map(decodeURIComponent));
  const fingerprint = deps.idempotency.fingerprint(url.pathname + url.search, body);
  const earlier = deps.idempotency.lookup(account.key, key, fingerprint);
  if (earlier) return earlier;
  const response = handler(ctx, ...route.match.slice(1).map(decodeURIComponent));
  deps.idempotency.store(account.key, key, fingerprint, response);
  return response;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function startServer(deps: ServerDeps): { server: Server; close: () => void } {
  const timers = new Set<NodeJS.Timeout>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    if (!url.pathname.startsWith("/v2/")) {
      const served = await serveHostedPage(req, res, url, { ...deps, readBody: () => readBody(req) });
      if (!served) res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found\n");
      return;
    }
    deps.requests.push({
      method: req.method ?? "GET",
      path: url.pathname + url.search,
      idempotencyKey: headerValue(req, "idempotency-key"),
      at: new Date(),
    });
    const fault = deps.faults.take(req.method ?? "GET");
    if (fault && answerFault(fault, res)) return;
    const response = api(deps, req, url, await readBody(req));
    // The request was carried out; the connection dies before the answer leaves.
    if (fault === "drop-after") return void res.socket?.destroy();
    if (fault === "slow") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, SLOW_MS);
        timers.add(timer);
      });
    }
    send(res, response);
  };
  const server = createServer({ key: deps.tls.key, cert: deps.tls.cert }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(
        res,
        apiError(500, `Mollie stand-in failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
  });
  return {
    server,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
    },
  };
}
