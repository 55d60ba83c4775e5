// A merchant's backend as the tests see it: real HTTP against the started server.
import http from "node:http";
import net from "node:net";

export type ApiResponse = { status: number; headers: Headers; body: unknown; text: string };

export type ApiRequest = {
  method?: string;
  token?: string;
  /** A JSON value to send, or raw text when a string is wanted on the wire as-is. */
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
};

export async function callApi(baseUrl: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  let body: string | undefined;
  if (request.json !== undefined || request.raw !== undefined) {
    headers["Content-Type"] = "application/json";
    body = request.raw ?? JSON.stringify(request.json);
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method: request.method ?? (body ? "POST" : "GET"),
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the assertion on `body` will say so.
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** The merchant's payment count as the API reports it: how tests prove nothing was written. */
export async function paymentTotal(baseUrl: string, token: string): Promise<number> {
  const response = await callApi(baseUrl, "/api/payments?perPage=1", { token });
  if (response.status !== 200)
    throw new Error(`Could not read the total: ${response.status} ${response.text}`);
  return (response.body as { meta: { total: number } }).meta.total;
}

/**
 * A request fetch would not send: a hand-set Host header, or a body streamed in chunks with no
 * Content-Length. Resolves with the status and the body text.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: string[] } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? "GET", headers: options.headers },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on("error", reject);
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end();
  });
}

/**
 * Bytes on a socket, for requests no HTTP client sends (absolute-form targets, `OPTIONS *`, broken
 * framing): writes `text` as it is and parses what comes back until the server closes or answers in full.
 */
export function rawHttp(
  baseUrl: string,
  text: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    const finish = () => {
      const [head = "", ...rest] = received.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
      );
      const body = rest.join("\r\n\r\n");
      const length = Number(headers["content-length"] ?? NaN);
      if (Number.isFinite(length) && Buffer.byteLength(body) < length) return false;
      resolve({
        status: Number(statusLine.split(" ")[1] ?? 0),
        headers,
        body: Number.isFinite(length) ? body.slice(0, length) : body,
      });
      socket.destroy();
      return true;
    };
    socket.setTimeout(10_000, () => reject(new Error(`no answer to ${JSON.stringify(text.slice(0, 60))}`)));
    socket.on("data", (chunk) => {
      received += chunk.toString();
      if (received.includes("\r\n\r\n")) finish();
    });
    socket.on("end", () => finish());
    socket.on("error", reject);
  });
}

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** Every response in `bytes`, in order, as a client reading one connection sees them (bodies by Content-Length). */
export function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes;
  while (rest.subarray(0, 5).toString() === "HTTP/") {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) break;
    const [statusLine = "", ...headerLines] = rest.subarray(0, headEnd).toString().split("\r\n");
    const headers = Object.fromEntries(
      headerLines.map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
    );
    let body = "";
    let bodyEnd = headEnd + 4;
    if (headers["transfer-encoding"] === "chunked") {
      // Chunks until the empty one; an answer not all here yet is left for the next call.
      for (;;) {
        const lineEnd = rest.indexOf("\r\n", bodyEnd);
        if (lineEnd < 0) return responses;
        const size = parseInt(rest.subarray(bodyEnd, lineEnd).toString(), 16);
        if (size === 0) {
          bodyEnd = lineEnd + 4;
          break;
        }
        body += rest.subarray(lineEnd + 2, lineEnd + 2 + size).toString();
        bodyEnd = lineEnd + 2 + size + 2;
      }
    } else {
      bodyEnd += Number(headers["content-length"] ?? 0);
      body = rest.subarray(headEnd + 4, bodyEnd).toString();
    }
    responses.push({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body });
    rest = rest.subarray(bodyEnd);
  }
  return responses;
}

/**
 * A conversation on one socket: writes each of `parts` `gapMs` after the last (a slow client), half-closes
 * after the last if `end`, and resolves once the server closes the connection, with every response it sent
 * and how long its first byte took.
 */
export function rawExchange(
  baseUrl: string,
  parts: string[],
  { gapMs = 0, end = false }: { gapMs?: number; end?: boolean } = {},
): Promise<{ responses: RawResponse[]; firstByteMs: number }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let firstByteMs = -1;
    const chunks: Buffer[] = [];
    const send = async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0) await new Promise((wait) => setTimeout(wait, gapMs));
        if (socket.destroyed || socket.writableEnded) return;
        socket.write(part);
      }
      if (end) socket.end();
    };
    const socket = net.connect(Number(port), hostname, () => void send());
    socket.setTimeout(30_000, () => reject(new Error(`no close after ${Buffer.concat(chunks).toString()}`)));
    socket.on("data", (chunk: Buffer) => {
      if (firstByteMs < 0) firstByteMs = Date.now() - started;
      chunks.push(chunk);
    });
    socket.on("close", () => resolve({ responses: parseResponses(Buffer.concat(chunks)), firstByteMs }));
    // A server that closes while the client still writes resets the connection; what it sent is kept.
    socket.on("error", () => undefined);
  });
}

export type ReusedConnection = { responses: RawResponse[]; closed: boolean; reset: boolean };

/**
 * A keep-alive client's view of a refusal: writes `first` (its parts `gapMs` apart), reads the answer, then,
 * unless that answer said `Connection: close`, sends `next` on the same socket and reads its answer. Resolves
 * with what came back, whether the server closed the connection, and whether it reset it; rejects if the
 * connection hangs (no answer, and no close, within 15 s).
 */
export function reuseConnection(
  baseUrl: string,
  first: Array<string | Buffer>,
  next: string,
  { gapMs = 0 }: { gapMs?: number } = {},
): Promise<ReusedConnection> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sentNext = false;
    let reset = false;
    let sentFirst = false;
    const socket = net.connect(Number(port), hostname, () => void send());
    const send = async () => {
      for (const [index, part] of first.entries()) {
        if (index > 0) await new Promise((wait) => setTimeout(wait, gapMs));
        if (socket.destroyed || socket.writableEnded) return;
        socket.write(part);
      }
      sentFirst = true;
      sendNext();
    };
    /** The next request goes once the first is all written and answered (a refusal may come before its body). */
    const sendNext = () => {
      const responses = parseResponses(Buffer.concat(chunks));
      if (sentNext || !sentFirst || responses.length === 0) return;
      if (responses[0]!.headers.connection === "close") return;
      sentNext = true;
      socket.write(next);
    };
    const done = (closed: boolean) => {
      clearTimeout(hung);
      resolve({ responses: parseResponses(Buffer.concat(chunks)), closed, reset });
      socket.destroy();
    };
    const hung = setTimeout(
      () => reject(new Error(`connection hung after ${Buffer.concat(chunks).toString().slice(0, 300)}`)),
      15_000,
    );
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponses(Buffer.concat(chunks)).length >= 2) done(false);
      else sendNext();
    });
    socket.on("error", () => (reset = true));
    socket.on("close", () => done(true));
  });
}

/** A payment event's data: the full payment's fields, in the order the API writes them, before the refunds'. */
export const PAYMENT_EVENT_FIELDS = [
  "id",
  "external_id",
  "type",
  "status",
  "amount",
  "currency",
  "metadata",
  "customer_id",
  "created_at",
  "checkout_url",
  "payment_method",
  "failure_code",
  "failure_reason",
  "fee",
  "net",
  "processor",
  "processor_payment_id",
];
/** The full payment (GET /api/payments/{id}). */
export const FULL_PAYMENT_FIELDS = [...PAYMENT_EVENT_FIELDS, "amount_refunded", "amount_refundable"];

/** What a new webhook endpoint subscribes to when it names no events: every money event, spelled out here. */
export const DEFAULT_EVENT_TYPES = [
  "payment.pending",
  "payment.completed",
  "payment.failed",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
  "payout.created",
  "payout.paid",
  "payout.failed",
  "payout.canceled",
  "dispute.created",
  "dispute.updated",
  "dispute.closed",
  "dispute.funds_withdrawn",
  "dispute.funds_reinstated",
];
