// Webhook endpoints (docs.stripe.com/api/webhook_endpoints), events (docs.stripe.com/api/events) and their
// delivery, signed as docs.stripe.com/webhooks#verify-manually describes: header
// `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's whsec_ secret>`.
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import tls from "node:tls";
import { standInTls } from "../tls";
import { ApiError } from "./errors";
import { metadata, obj, onlyKnown, requiredStr, str, strings } from "./form";
import type { Route } from "./server";
import { type Account, clone, type Ctx, find, listOf, newId, now, type Obj, save, type State } from "./store";

/** Used for events until the account's first request pins its version (Stripe-Version header). */
export const FALLBACK_API_VERSION = "2026-11-18.endive";

export interface Origin {
  state: State;
  account: Account;
  requestId: string | null;
  idempotencyKey: string | null;
}

// Per endpoint, deliveries go one after another, so a receiver sees an object's events in the order they happened.
const chains = new WeakMap<State, Map<string, Promise<void>>>();

export function emit(origin: Origin, type: string, object: Obj, previous?: Record<string, unknown>): Obj {
  const { state, account } = origin;
  const targets = endpointsFor(account, type);
  const event = save(account, {
    id: newId("evt"),
    object: "event",
    api_version: account.apiVersion ?? FALLBACK_API_VERSION,
    created: now(),
    data: { object: clone(object), ...(previous ? { previous_attributes: previous } : {}) },
    livemode: account.livemode,
    pending_webhooks: state.webhooksMuted ? 0 : targets.length,
    request: { id: origin.requestId, idempotency_key: origin.idempotencyKey },
    type,
  });
  if (!state.webhooksMuted) for (const endpoint of targets) void deliver(state, event, endpoint);
  return event;
}

function endpointsFor(account: Account, type: string) {
  return [...account.objects.values()].filter((o) => {
    if (o.object !== "webhook_endpoint" || o.status !== "enabled") return false;
    const enabled = o.enabled_events as string[];
    return enabled.includes("*") || enabled.includes(type);
  });
}

/** Delivers an event again to every endpoint that wants it now (a test's stand-in for a retry). */
export async function resend(state: State, account: Account, event: Obj) {
  await Promise.all(endpointsFor(account, event.type as string).map((e) => deliver(state, event, e)));
}

export function signature(secret: string, payload: string, timestamp = now()) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

function deliver(state: State, event: Obj, endpoint: Obj): Promise<void> {
  const byEndpoint = chains.get(state) ?? new Map<string, Promise<void>>();
  chains.set(state, byEndpoint);
  const previous = byEndpoint.get(endpoint.id) ?? Promise.resolve();
  const run = previous.then(() => send(state, event, endpoint));
  byEndpoint.set(endpoint.id, run);
  state.deliveries.add(run);
  void run.finally(() => state.deliveries.delete(run));
  return run;
}

async function send(state: State, event: Obj, endpoint: Obj) {
  // Stripe posts the event pretty-printed; the signature covers exactly these bytes.
  const payload = JSON.stringify(
    { ...event, api_version: endpoint.api_version ?? event.api_version },
    null,
    2,
  );
  const url = endpoint.url as string;
  const call = { url, type: event.type as string, eventId: event.id, at: new Date() };
  try {
    const status = await post(url, payload, {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature": signature(endpoint.secret as string, payload),
    });
    state.webhookCalls.push({ ...call, status });
  } catch (error) {
    state.webhookCalls.push({ ...call, status: null, error: (error as Error).message });
  }
}

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    const request = (secure ? https : http).request(target, {
      method: "POST",
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
      timeout: 10_000,
      ...(secure ? { ca: [...tls.rootCertificates, standInTls().ca] } : {}),
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("timeout", () => request.destroy(new Error("timed out after 10 s")));
    request.on("error", reject);
    request.end(body);
  });
}

// The API.

const endpointParams = [
  "api_version",
  "connect",
  "description",
  "enabled_events",
  "expand",
  "metadata",
  "url",
];

function render(endpoint: Obj, withSecret = false) {
  const { secret, ...rest } = clone(endpoint);
  return withSecret ? { ...rest, secret } : rest;
}

function validUrl(value: string) {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // Falls through to Stripe's error.
  }
  throw ApiError.invalid("url", `Invalid URL: ${value}`, "url_invalid");
}

function enabledEvents(ctx: Ctx) {
  const events = strings(ctx.params, "enabled_events");
  events.forEach((type, i) => {
    if (type !== "*" && !/^[a-z_]+(\.[a-z_]+)+$/.test(type)) {
      throw ApiError.invalid(`enabled_events[${i}]`, `Invalid enabled_events[${i}]: ${type}`);
    }
  });
  return events;
}

function createEndpoint(ctx: Ctx) {
  onlyKnown(ctx.params, endpointParams);
  const url = validUrl(requiredStr(ctx.params, "url"));
  if (ctx.params.enabled_events === undefined) throw ApiError.missing("enabled_events");
  const endpoint = save(ctx.account, {
    id: newId("we"),
    object: "webhook_endpoint",
    api_version: str(ctx.params, "api_version") ?? null,
    application: null,
    created: now(),
    description: str(ctx.params, "description") ?? null,
    enabled_events: enabledEvents(ctx),
    livemode: ctx.account.livemode,
    metadata: metadata(ctx.params),
    secret: newId("whsec"),
    status: "enabled",
    url,
  });
  // The secret is shown only in the answer to the create call.
  return render(endpoint, true);
}

function updateEndpoint(ctx: Ctx, id: string) {
  onlyKnown(ctx.params, ["description", "disabled", "enabled_events", "expand", "metadata", "url"]);
  const endpoint = find(ctx.account, "webhook_endpoint", id, "webhook_endpoint");
  const url = str(ctx.params, "url");
  if (url !== undefined) endpoint.url = validUrl(url);
  if (ctx.params.enabled_events !== undefined) endpoint.enabled_events = enabledEvents(ctx);
  const disabled = str(ctx.params, "disabled");
  if (disabled !== undefined) endpoint.status = disabled === "true" ? "disabled" : "enabled";
  const description = str(ctx.params, "description");
  if (description !== undefined) endpoint.description = description || null;
  if (obj(ctx.params, "metadata") || ctx.params.metadata === "") {
    endpoint.metadata =
      ctx.params.metadata === "" ? {} : metadata(ctx.params, "metadata", endpoint.metadata as never);
  }
  return render(endpoint);
}

function listEvents(ctx: Ctx) {
  const type = str(ctx.params, "type");
  const types = ctx.params.types === undefined ? undefined : strings(ctx.params, "types");
  const events = [...ctx.account.objects.values()].filter(
    (o) =>
      o.object === "event" &&
      (!type || (type.endsWith("*") ? (o.type as string).startsWith(type.slice(0, -1)) : o.type === type)) &&
      (!types || types.includes(o.type as string)),
  );
  return listOf(events, ctx.params, "/v1/events");
}

export const webhookRoutes: Route[] = [
  { method: "POST", path: /^\/v1\/webhook_endpoints$/, handler: createEndpoint },
  {
    method: "GET",
    path: /^\/v1\/webhook_endpoints$/,
    handler: (ctx) => {
      const all = [...ctx.account.objects.values()].filter((o) => o.object === "webhook_endpoint");
      const page = listOf(all, ctx.params, "/v1/webhook_endpoints");
      return { ...page, data: page.data.map((e) => render(e)) };
    },
  },
  {
    method: "GET",
    path: /^\/v1\/webhook_endpoints\/([^/]+)$/,
    handler: (ctx, id) => render(find(ctx.account, "webhook_endpoint", id, "webhook_endpoint")),
  },
  { method: "POST", path: /^\/v1\/webhook_endpoints\/([^/]+)$/, handler: updateEndpoint },
  {
    method: "DELETE",
    path: /^\/v1\/webhook_endpoints\/([^/]+)$/,
    handler: (ctx, id) => {
      find(ctx.account, "webhook_endpoint", id, "webhook_endpoint");
      ctx.account.objects.delete(id);
      return { id, object: "webhook_endpoint", deleted: true };
    },
  },
  { method: "GET", path: /^\/v1\/events$/, handler: listEvents },
  {
    method: "GET",
    path: /^\/v1\/events\/([^/]+)$/,
    handler: (ctx, id) => clone(find(ctx.account, "event", id)),
  },
];
