import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * The web `Request` a node:http request stands for, as Next.js builds it for route handlers: the URL from the
 * Host header (and `X-Forwarded-Proto` behind a proxy), the client address in `X-Forwarded-For` when no proxy
 * set one, and the body streamed, never buffered here, so the 16 KiB cap is enforced as bytes arrive.
 */
export function toWebRequest(incoming: IncomingMessage): Request {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
  }
  if (!headers.has("x-forwarded-for") && incoming.socket.remoteAddress) headers.set("x-forwarded-for", incoming.socket.remoteAddress);
  const protocol = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  const path = incoming.url ?? "/";
  const url = path.startsWith("/") ? `${protocol}://${headers.get("host") ?? "localhost"}${path}` : path;
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null,
    duplex: "half",
  } as RequestInit);
}

/** Writes a web `Response` (a small JSON body here) to node:http, without a body for HEAD. */
export async function sendWebResponse(outgoing: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  const body = response.body && method !== "HEAD" ? Buffer.from(await response.arrayBuffer()) : undefined;
  outgoing.statusCode = response.status;
  for (const [name, value] of response.headers) outgoing.setHeader(name, value);
  if (body) outgoing.setHeader("Content-Length", body.byteLength);
  outgoing.end(body);
}
