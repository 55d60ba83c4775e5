// The API's request and response as plain data, shared by the router, the wrapper and the node:http bridge.

/**
 * What the API reads of a request: a web `Request` satisfies it (Next.js route handlers in development), and
 * so does the light view scripts/server.ts builds over node:http, which skips constructing a `Request`.
 */
export type ApiRequest = {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
};

/**
 * A response as plain data: node:http writes it as it is (no web `Response`, stream and copy per request);
 * under Next.js it becomes a `Response` (toWebResponse).
 */
export type ApiResponse = {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  /** A body written over time (Server-Sent Events) instead of `body`: started once the headers are sent. */
  stream?: (sink: StreamSink) => void;
  /** An unexpected error behind a 500, logged with the request's id once it is answered; never sent. */
  error?: unknown;
  /** Who asked, once a token was recognised: the request goes to that merchant's request log. Never sent. */
  caller?: { merchantId: number; tokenId: number };
};

/** Where a streamed body is written: the node:http response, or a web `ReadableStream` under Next.js. */
export type StreamSink = {
  write(chunk: string): void;
  end(): void;
  /** Called once when the client goes or the body ends. */
  onClose(listener: () => void): void;
  /** Bytes written but not yet taken by the client. */
  bufferedBytes(): number;
};
