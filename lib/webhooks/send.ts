import "server-only";
import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { lookupAll } from "./dns-cache";
import { isPrivateAddress } from "./network-guard";

export type WebhookMessage = {
  url: string;
  eventId: string;
  timestamp: Date;
  body: string;
  secrets: string[];
};

export type SendResult = {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** The first 1 KB of the response body. */
  excerpt: string | null;
  /** From a Retry-After header, in seconds. */
  retryAfterSeconds: number | null;
};

const EXCERPT_BYTES = 1024;

class RefusedDestination extends Error {}

/** Answers a socket's lookup from the cache: `all` as asked, else the first address. */
function answerLookup(
  options: { all?: boolean },
  callback: Parameters<LookupFunction>[2],
  addresses: LookupAddress[],
): void {
  if (options.all)
    return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
  const first = addresses[0]!;
  callback(null, first.address, first.family);
}

/** Lookups through the cache (dns-cache.ts), for development and tests. */
const cachedLookup: LookupFunction = (hostname, options, callback) => {
  lookupAll(hostname, ({ error, addresses }) =>
    error ? callback(error, "", 0) : answerLookup(options, callback, addresses),
  );
};

/** Refuses private addresses on the address actually connected to, after DNS, so rebinding cannot dodge it. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookupAll(hostname, ({ error, addresses }) => {
    if (error) return callback(error, "", 0);
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused)
      return callback(
        new RefusedDestination(`Refused: ${hostname} resolves to the private address ${refused.address}.`),
        "",
        0,
      );
    answerLookup(options, callback, addresses);
  });
};

// Keep-alive pools, one pair guarded for production and one open for development and tests.
const agents = {
  guarded: {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 256, lookup: guardedLookup }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 256, lookup: guardedLookup }),
  },
  open: {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 256, lookup: cachedLookup }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 256, lookup: cachedLookup }),
  },
};

/** The exact bytes a delivery sends and signs; the dashboard shows the same string. */
export function webhookBody(eventType: string, data: unknown): string {
  return JSON.stringify({ event: eventType, data });
}

/** Standard Webhooks headers; during a rotation both secrets sign (space-separated, as the spec allows). */
export function signatureHeaders(message: WebhookMessage): Record<string, string> {
  return {
    "webhook-id": message.eventId,
    "webhook-timestamp": String(Math.floor(message.timestamp.getTime() / 1000)),
    "webhook-signature": message.secrets
      .map((secret) => new Webhook(secret).sign(message.eventId, message.timestamp, message.body))
      .join(" "),
  };
}

/** Every header a delivery carries, as sent over the network and as an inbox captures it. */
export function deliveryHeaders(message: WebhookMessage, bodyBytes: number): Record<string, string> {
  return {
    "content-type": "application/json",
    "content-length": String(bodyBytes),
    "user-agent": "Payments-Webhooks/1.0",
    ...signatureHeaders(message),
  };
}

function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * POSTs one signed event. Never follows redirects; gives up after `timeoutMs`; keeps the status, latency and
 * the first 1 KB of the answer. With `allowPrivateNetworks` false, plain http and private addresses are refused.
 */
export function sendWebhook(
  message: WebhookMessage,
  options: { allowPrivateNetworks: boolean; timeoutMs: number },
): Promise<SendResult> {
  const started = performance.now();
  const finish = (result: Omit<SendResult, "latencyMs">): SendResult => ({
    ...result,
    latencyMs: Math.round(performance.now() - started),
  });
  const failure = (error: string, status: number | null = null) =>
    finish({ ok: false, status, error, excerpt: null, retryAfterSeconds: null });

  let url: URL;
  try {
    url = new URL(message.url);
  } catch {
    return Promise.resolve(failure("Invalid URL."));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return Promise.resolve(failure("Only http and https URLs are allowed."));
  if (!options.allowPrivateNetworks) {
    if (url.protocol !== "https:")
      return Promise.resolve(failure("Refused: plain http is not allowed in production."));
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && isPrivateAddress(host))
      return Promise.resolve(failure(`Refused: ${host} is a private address.`));
  }

  const body = Buffer.from(message.body);
  const client = url.protocol === "https:" ? https : http;
  const agent = (options.allowPrivateNetworks ? agents.open : agents.guarded)[url.protocol];
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(url, {
      method: "POST",
      agent,
      headers: deliveryHeaders(message, body.length),
    });
    const timer = setTimeout(() => {
      request.destroy();
      done(failure(`Timed out after ${options.timeoutMs / 1000} s.`));
    }, options.timeoutMs);
    request.on("error", (error) =>
      done(
        failure(error instanceof RefusedDestination ? error.message : `Connection failed: ${error.message}`),
      ),
    );
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `Redirect (${status}) not followed.`
            : `HTTP ${status}`;
        done(
          finish({
            ok,
            status,
            error,
            excerpt,
            retryAfterSeconds: parseRetryAfter(response.headers["retry-after"]),
          }),
        );
      });
      response.on("error", (error) =>
        done(failure(`Response failed: ${error.message}`, response.statusCode ?? null)),
      );
    });
    request.end(body);
  });
}
