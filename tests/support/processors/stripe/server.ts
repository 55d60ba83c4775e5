// The HTTPS front: authentication (docs.stripe.com/api/authentication), idempotency
// (docs.stripe.com/api/idempotent_requests), routing, `expand[]` (docs.stripe.com/api/expanding_objects), and the
// faults a test asks for. The hosted payment page shares the port under /c/pay/.
import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { standInTls } from "../tls";
import { accountRoutes } from "./account";
import { chargeRoutes } from "./charges";
import { checkoutRoutes, sessionVirtual, sweep } from "./checkout-sessions";
import { ApiError, invalidKey, noKey } from "./errors";
import { canonical, parseForm, type Params } from "./form";
import { hostedPage } from "./hosted-page";
import { paymentRoutes } from "./payment-intents";
import { refundRoutes } from "./refunds";
import {
  type Account,
  type Ctx,
  expand,
  expandPaths,
  newId,
  type RequestLogEntry,
  type State,
} from "./store";
import { webhookRoutes } from "./webhooks";

export interface Route {
  method: "GET" | "POST" | "DELETE";
  path: RegExp;
  handler: (ctx: Ctx, id: string) => Record<string, unknown>;
}

export type FaultKind = "500" | "html" | "undocumented" | "slow" | "drop" | "drop-after";

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

const routes: Route[] = [
  ...checkoutRoutes,
  ...paymentRoutes,
  ...chargeRoutes,
  ...refundRoutes,
  ...webhookRoutes,
  ...accountRoutes,
];

const json = (value: unknown) => JSON.stringify(value, null, 2);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function keyOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  if (bearer) return bearer[1]!.trim();
  // curl -u sk_test_…: sends Basic auth with the key as the user name.
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (basic) return Buffer.from(basic[1]!, "base64").toString("utf8").split(":")[0] ?? "";
  return header;
}

function authenticate(state: State, req: IncomingMessage): Account {
  const key = keyOf(req);
  if (!key) throw noKey();
  const account = state.accounts.get(key);
  if (!account) throw invalidKey(key);
  return account;
}

/** Whether Stripe keeps a response for replay: once the endpoint ran (success, card error, its own fault). */
const kept = (status: number) => status < 300 || status === 402 || status >= 500;

function execute(state: State, req: IncomingMessage, url: URL, body: string, requestId: string): Answer {
  const method = req.method ?? "GET";
  const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
  const headers: Record<string, string> = {};
  let account: Account | undefined;
  try {
    account = authenticate(state, req);
    const version = req.headers["stripe-version"] as string | undefined;
    account.apiVersion ??= version ?? null;
    headers["stripe-version"] = version ?? account.apiVersion ?? "";
    const params: Params = method === "POST" ? parseForm(body) : parseForm(url.search.slice(1));
    const useKey = method === "POST" && idempotencyKey !== null;
    if (useKey) {
      headers["idempotency-key"] = idempotencyKey;
      if (idempotencyKey.length > 255) {
        throw ApiError.request(
          "Idempotency-Key must be at most 255 characters long.",
          undefined,
          "idempotency_key",
        );
      }
    }
    const fingerprint = `${method} ${url.pathname} ${canonical(params)}`;
    const saved = useKey ? account.idempotency.get(idempotencyKey) : undefined;
    if (saved) {
      if (saved.fingerprint !== fingerprint) {
        throw new ApiError(400, {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        });
      }
      return {
        status: saved.status,
        body: saved.body,
        headers: { ...headers, "idempotent-replayed": "true", "original-request": saved.requestId },
      };
    }
    const answer = route(state, account, method, url.pathname, params, requestId, idempotencyKey);
    if (useKey && kept(answer.status)) {
      account.idempotency.set(idempotencyKey, {
        fingerprint,
        requestId,
        status: answer.status,
        body: answer.body,
      });
    }
    return { ...answer, headers };
  } catch (error) {
    const failure = error instanceof ApiError ? error : internal(error);
    return { status: failure.status, body: json(failure), headers };
  }
}

function internal(error: unknown) {
  console.error("stripe stand-in: handler failed", error);
  return new ApiError(500, { type: "api_error", message: "An unknown error occurred" });
}

function route(
  state: State,
  account: Account,
  method: string,
  path: string,
  params: Params,
  requestId: string,
  idempotencyKey: string | null,
) {
  for (const candidate of routes) {
    const match = candidate.path.exec(path);
    if (!match || candidate.method !== method) continue;
    const ctx: Ctx = { state, account, params, requestId, idempotencyKey };
    try {
      const result = candidate.handler(ctx, decodeURIComponent(match[1] ?? ""));
      const expanded = expand(account, result, expandPaths(params), sessionVirtual(account));
      return { status: 200, body: json(expanded) };
    } catch (error) {
      const failure = error instanceof ApiError ? error : internal(error);
      return { status: failure.status, body: json(failure) };
    }
  }
  const unknown = new ApiError(404, {
    type: "invalid_request_error",
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
  return { status: 404, body: json(unknown) };
}

export interface Front {
  port: number;
  close(): Promise<void>;
}

/** A fault a test ordered, for requests of one method only when `method` is set. */
export type OrderedFault = { kind: FaultKind; method?: string };

export async function serve(state: State, faults: OrderedFault[]): Promise<Front> {
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => (timers.delete(timer), resolve()), ms);
      timers.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    const body = await readBody(req);
    if (url.pathname.startsWith("/c/pay/")) return hostedPage(state, req, res, url, body);
    const requestId = newId("req");
    const entry: RequestLogEntry = {
      method: req.method ?? "GET",
      path: url.pathname,
      idempotencyKey: (req.headers["idempotency-key"] as string | undefined) ?? null,
      at: new Date(),
    };
    state.requests.push(entry);
    const ordered = url.pathname.startsWith("/v1/")
      ? faults.findIndex((each) => each.method === undefined || each.method === req.method)
      : -1;
    const fault = ordered === -1 ? undefined : faults.splice(ordered, 1)[0]!.kind;
    const write = (status: number, type: string, text: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { "content-type": type, "request-id": requestId, ...headers });
      res.end(text);
    };
    if (fault === "drop") return void req.socket.destroy();
    if (fault === "500") {
      return write(
        500,
        "application/json",
        json({ error: { type: "api_error", message: "An unknown error occurred" } }),
      );
    }
    if (fault === "html") {
      return write(
        502,
        "text/html",
        "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>",
      );
    }
    if (fault === "undocumented") {
      return write(
        200,
        "application/json",
        json({ object: "surprise", ok: true, note: "not the object you asked for" }),
      );
    }
    const answer = execute(state, req, url, body, requestId);
    entry.status = answer.status;
    if (fault === "drop-after") return void req.socket.destroy();
    if (fault === "slow") await later(15_000);
    write(answer.status, "application/json", answer.body, answer.headers);
  }

  const { key, cert } = standInTls();
  const server = https.createServer({ key, cert }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("stripe stand-in: request failed", error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const sweeper = setInterval(() => sweep(state), 1000);
  sweeper.unref();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      clearInterval(sweeper);
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
