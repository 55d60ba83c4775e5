// A merchant's backend as the tests see it: real HTTP against the started server.
import http from "node:http";

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
