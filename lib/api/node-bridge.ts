import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { appOrigin } from "@/lib/platform/env";
import { jsonResponse } from "./responses";
import type { ApiRequest, ApiResponse } from "./types";

/**
 * The path and query of a request target: origin-form (`/api/payments?page=2`) as it is, absolute-form
 * (`http://any.host/api/payments`) without its authority, which says nothing about where links should point.
 */
export function requestPath(target: string): string {
  if (target.startsWith("/")) return target;
  const url = URL.parse(target);
  return url ? `${url.pathname}${url.search}` : "/";
}

/**
 * A request body as a web stream, pulled as the reader asks. Cancelling it (a body over the limit) stops
 * reading and discards the rest; nothing is enqueued after that, which `Readable.toWeb` did, throwing
 * "Controller is already closed" as an uncaught exception on every oversized upload.
 */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.pause();
      incoming.on("data", (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.once("end", () => {
        if (open) controller.close();
        open = false;
      });
      incoming.once("error", (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      open = false;
      incoming.resume();
    },
  });
}

/**
 * The API's view of a node:http request, read straight from it instead of building a web `Request` (which
 * costs an AbortSignal, a Headers copy and more per call): the URL on the configured public origin (APP_URL,
 * never the Host header), the headers (with the client address the server stamped), and the body
 * streamed on demand, never buffered here, so the 16 KiB cap is enforced as bytes arrive.
 */
export function toApiRequest(incoming: IncomingMessage): ApiRequest {
  return new NodeApiRequest(incoming);
}

/** A class, not closures: tsx (keepNames) names each nested function with a call when it is created. */
class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeHeaders;
  #body: ReadableStream<Uint8Array> | null | undefined;

  constructor(private readonly incoming: IncomingMessage) {
    this.method = incoming.method ?? "GET";
    this.url = `${appOrigin()}${requestPath(incoming.url ?? "/")}`;
    this.headers = new NodeHeaders(incoming.headers);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      this.#body = this.method === "GET" || this.method === "HEAD" ? null : bodyStream(this.incoming);
    }
    return this.#body;
  }
}

class NodeHeaders {
  constructor(private readonly headers: IncomingMessage["headers"]) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

/**
 * A body still arriving when its answer is sent (a 413 on Content-Length, a 401 before a large upload) is read
 * and discarded up to this size, and the connection stays open for the next request, as Go's server does.
 */
const DRAINED_BODY_BYTES = 256 * 1024;
/** How long a closing connection keeps reading (and discarding) a body that is still arriving. */
const LINGER_MS = 2000;

/**
 * Keeps a connection usable after an answer given before its request's body was read. Unread, the body
 * stayed in the paused request and the next request on the socket was never parsed. A small declared body
 * is discarded as it arrives and the connection stays open; a larger or unsized one gets `Connection: close`,
 * and the connection closes after a linger: closing with unread bytes makes the kernel send a reset, which
 * can wipe the answer from the client's buffer before it is read.
 */
function settleUnreadBody(outgoing: ServerResponse, response: ApiResponse): void {
  const incoming = outgoing.req;
  if (!incoming || incoming.complete) return;
  const declared = Number(incoming.headers["content-length"] ?? NaN);
  const closing = response.headers.Connection === "close";
  // Node's own discard for an unread body: no listener, flowing.
  incoming.removeAllListeners("data");
  incoming.resume();
  if (!closing && declared <= DRAINED_BODY_BYTES && incoming.headers["transfer-encoding"] === undefined)
    return;
  response.headers.Connection = "close";
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  // Node ends a `Connection: close` socket with destroySoon (FIN, then destroy as soon as it is written).
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/**
 * The largest body a page (Next.js) is handed: Next.js's own limit for a server action; a checkout form is
 * far smaller. A declared larger one is refused before it reaches Next.js.
 */
const MAX_PAGE_BODY_BYTES = 1024 * 1024;

/**
 * Before a request goes to a page: a body declared over MAX_PAGE_BODY_BYTES is answered 413 here (and the
 * connection closes after a linger). A smaller one that Next.js answers without reading all of it (a route that
 * refused it) is read and discarded after the answer, so the connection's next request is read, not left
 * behind the rest of this body; more than the limit arriving meanwhile closes the connection.
 */
export function screenPageBody(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (Number(incoming.headers["content-length"] ?? 0) > MAX_PAGE_BODY_BYTES) {
    sendApiResponse(outgoing, jsonResponse(413, { message: STATUS_CODES[413] }), incoming.method);
    return false;
  }
  outgoing.once("finish", () => {
    if (incoming.complete) return;
    // Whatever read it (Next.js's adapter, the dashboard proxy's pipe) stops; the rest is dropped.
    incoming.unpipe();
    incoming.removeAllListeners("data");
    let discarded = 0;
    incoming.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_PAGE_BODY_BYTES) incoming.socket.destroy();
    });
    incoming.resume();
  });
  return true;
}

/** Writes an API response in one write (headers and body together), without the body for HEAD. */
export function sendApiResponse(
  outgoing: ServerResponse,
  response: ApiResponse,
  method: string | undefined,
): void {
  settleUnreadBody(outgoing, response);
  if (response.stream) return sendStream(outgoing, response, method);
  if (response.body !== null) response.headers["Content-Length"] = String(Buffer.byteLength(response.body));
  outgoing.writeHead(response.status, response.headers);
  outgoing.end(method === "HEAD" ? undefined : (response.body ?? undefined));
}

/** A streamed body (Server-Sent Events): headers at once, then chunks as the stream writes them. */
function sendStream(outgoing: ServerResponse, response: ApiResponse, method: string | undefined): void {
  outgoing.writeHead(response.status, response.headers);
  if (method === "HEAD") {
    outgoing.end();
    return;
  }
  response.stream!({
    write: (chunk) => void outgoing.write(chunk),
    end: () => outgoing.end(),
    onClose: (listener) => void outgoing.once("close", listener),
    bufferedBytes: () => outgoing.writableLength,
  });
}

/** The methods this server takes, as `OPTIONS *` and a refused CONNECT list them. */
const SERVER_METHODS = "GET, HEAD, POST, OPTIONS";

/** A JSON error written straight to the socket, for failures Node's HTTP parser finds before any routing. */
function rawJsonError(status: number, headers: string[] = []): string {
  const body = JSON.stringify({ message: STATUS_CODES[status] ?? "Bad Request" });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...headers,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** Connections whose parser has failed: Node reports the failure again with each later chunk. */
const failedConnections = new WeakSet<Duplex>();

/**
 * `clientError`: a request Node could not parse (bad Content-Length or Transfer-Encoding, headers over the
 * limit, a timeout). Node's own answer has an empty body; merchants' clients expect JSON from this host.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  if (failedConnections.has(socket)) return;
  failedConnections.add(socket);
  const status =
    error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  answerAfterInFlight(socket, status);
}

/**
 * Bytes that follow a complete request (a pipelined request Node cannot parse) are answered after that
 * request's answer, which the handler is still writing; Node's own answer cut it off. A failure in the request
 * being read (a timeout, a broken body) is answered at once, unless its answer has begun: then, as Node does,
 * the connection closes, rather than mixing an error into that answer.
 */
function answerAfterInFlight(socket: Duplex, status: number): void {
  // Node's name for the answer a connection is writing, which its own clientError answer checks too.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight?.req.complete) {
    // Emitted once Node has let the answer go (and started the next pipelined one, if any).
    inFlight.once("close", () => answerAfterInFlight(socket, status));
  } else if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
  } else {
    socket.end(rawJsonError(status));
  }
}

/** `connect`: this server is no proxy. Node closes a CONNECT's connection without a word; this says 405. */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.end(rawJsonError(405, [`Allow: ${SERVER_METHODS}`]));
}

/**
 * What to do with a request before routing: a request line naming another HTTP version than 1.x (Node's
 * parser takes `HTTP/2.0` and `HTTP/0.9`, then answers in HTTP/1.1) gets a JSON 505, a request target that is
 * neither a path nor an absolute URL (`OPTIONS *`, garbage) or an HTTP/1.1 request without Host a JSON
 * answer here; an absolute-form target is rewritten to its path, so nothing downstream (the API's links,
 * Next.js's redirects) sees its host.
 */
export function screenRequest(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (incoming.httpVersionMajor !== 1) {
    const refusal = jsonResponse(505, { message: STATUS_CODES[505] }, { Connection: "close" });
    sendApiResponse(outgoing, refusal, incoming.method);
    return false;
  }
  const target = incoming.url ?? "/";
  if (target === "*")
    return incoming.method === "OPTIONS"
      ? (outgoing.writeHead(204, { Allow: SERVER_METHODS }).end(), false)
      : badRequest(incoming, outgoing);
  if (!target.startsWith("/")) {
    if (!URL.canParse(target)) return badRequest(incoming, outgoing);
    incoming.url = requestPath(target);
  }
  if (incoming.httpVersionMajor === 1 && incoming.httpVersionMinor >= 1 && !incoming.headers.host)
    return badRequest(incoming, outgoing);
  return true;
}

function badRequest(incoming: IncomingMessage, outgoing: ServerResponse): false {
  sendApiResponse(outgoing, jsonResponse(400, { message: STATUS_CODES[400] }), incoming.method);
  return false;
}

/** `checkExpectation`: an `Expect` other than 100-continue gets a JSON 417 (Node's own has no body). */
export function answerExpectationFailed(incoming: IncomingMessage, outgoing: ServerResponse): void {
  sendApiResponse(outgoing, jsonResponse(417, { message: STATUS_CODES[417] }), incoming.method);
}
