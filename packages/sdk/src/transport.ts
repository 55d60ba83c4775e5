import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./api-types.js";
import { PaymentsApiError, PaymentsConnectionError } from "./errors.js";

export type TransportOptions = {
  apiKey: string;
  baseUrl: string;
  /** Retries of a 429, a 5xx or a failed connection (default 2), after Retry-After or a growing pause. */
  maxRetries?: number;
  /** The longest pause between retries, in ms (default 30,000); a longer Retry-After is not waited for. */
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
};

const RETRIED = new Set([429, 500, 502, 503, 504]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Whether a request may be sent again after a 5xx or a lost connection: a read, a PUT or DELETE (the same
 * twice is the same), or a create under an Idempotency-Key. Any other POST (a cancel, evidence) might have
 * been done, so it is not repeated; a 429 was refused before anything was done, so it always is.
 */
function repeatable(request: Request, status: number | null): boolean {
  return status === 429 || SAFE_METHODS.has(request.method) || request.headers.has("idempotency-key");
}

function retryDelayMs(response: Response | null, attempt: number): number {
  const retryAfter = Number(response?.headers.get("retry-after"));
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  return Math.min(8000, 250 * 2 ** attempt) * (0.75 + Math.random() / 2);
}

/**
 * fetch with the bearer token and retries: a 429 or 5xx is tried again after its Retry-After (or 0.25 s,
 * 0.5 s, … with jitter), as is a failed connection, when the request is safe to repeat (`repeatable`).
 */
function retryingFetch(options: TransportOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? 2;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      let response: Response | null = null;
      let failure: unknown;
      try {
        response = await base(request.clone());
        if (!RETRIED.has(response.status)) return response;
      } catch (error) {
        failure = error;
      }
      const delay = retryDelayMs(response, attempt);
      if (attempt >= maxRetries || delay > maxDelay || !repeatable(request, response?.status ?? null)) {
        if (response) return response;
        throw new PaymentsConnectionError(`Could not reach ${new URL(request.url).origin}.`, {
          cause: failure,
        });
      }
      await response?.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
}

/** Turns a refusal into a PaymentsApiError, so every method resolves to data or rejects with one. */
const throwOnError: Middleware = {
  async onResponse({ response }: { response: Response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's page): the text is the message.
      body = { message: text || `HTTP ${response.status}` };
    }
    throw new PaymentsApiError(response.status, body, response.headers.get("x-request-id"));
  },
};

export function createTransport(options: TransportOptions) {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" },
    fetch: retryingFetch(options),
  });
  client.use(throwOnError);
  return client;
}
export type Transport = ReturnType<typeof createTransport>;
