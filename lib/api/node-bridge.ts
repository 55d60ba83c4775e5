import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ApiRequest } from "./types";
import type { ApiResponse } from "./types";

/**
 * The API's view of a node:http request, read straight from it instead of building a web `Request` (which
 * costs an AbortSignal, a Headers copy and more per call): the URL from the Host header (and
 * `X-Forwarded-Proto` behind a proxy), the client address as `X-Forwarded-For` when no proxy set one, and the
 * body streamed on demand, never buffered here, so the 16 KiB cap is enforced as bytes arrive.
 */
export function toApiRequest(incoming: IncomingMessage): ApiRequest {
  const header = (name: string): string | null => {
    const value = incoming.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  const protocol = header("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  const path = incoming.url ?? "/";
  const url = path.startsWith("/") ? `${protocol}://${header("host") ?? "localhost"}${path}` : path;
  const method = incoming.method ?? "GET";
  let body: ReadableStream<Uint8Array> | null | undefined;
  return {
    method,
    url,
    headers: {
      get: (name) =>
        header(name) ??
        (name.toLowerCase() === "x-forwarded-for" ? (incoming.socket.remoteAddress ?? null) : null),
    },
    get body() {
      if (body === undefined) {
        body =
          method === "GET" || method === "HEAD"
            ? null
            : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
      }
      return body;
    },
  };
}

/** Writes an API response in one write (headers and body together), without the body for HEAD. */
export function sendApiResponse(
  outgoing: ServerResponse,
  response: ApiResponse,
  method: string | undefined,
): void {
  const length = response.body === null ? {} : { "Content-Length": Buffer.byteLength(response.body) };
  outgoing.writeHead(response.status, { ...response.headers, ...length });
  outgoing.end(method === "HEAD" ? undefined : (response.body ?? undefined));
}
