import { PaymentsApiError, PaymentsConnectionError } from "@payments-platform/sdk";
import { loadCredentials } from "./config.js";
import { httpFetch } from "./http-fetch.js";
import { CliError, EXIT } from "./output.js";

export type ApiRequestOptions = { data?: string; idempotencyKey?: string; json?: boolean };

/**
 * Where a path points: always under the API's `/api/`, on the URL the user logged in to, so the key goes
 * nowhere else. `payments/1`, `/payments/1`, `api/payments/1` and `/api/payments/1` all name
 * `{api_url}/api/payments/1`; a query string is kept as typed.
 */
export function resolveApiPath(apiUrl: string, path: string): URL {
  if (/^[a-z][a-z\d+.-]*:/i.test(path))
    throw new CliError(
      `Give a path such as payments/1, not a URL (${path}): requests go to ${apiUrl}.`,
      EXIT.usage,
    );
  const relative = path.replace(/^\/+/, "").replace(/^api(?=[/?#]|$)\/?/, "");
  const url = new URL(`${apiUrl}/api/${relative}`);
  const apiRoot = `${new URL(apiUrl).pathname.replace(/\/+$/, "")}/api`;
  // `payments/../../dashboard` would leave the API: refuse it rather than send the key to a page.
  if (url.pathname !== apiRoot && !url.pathname.startsWith(`${apiRoot}/`))
    throw new CliError(`The path ${path} leaves the API (${url.pathname}).`, EXIT.usage);
  return url;
}

/** The -d body, checked here so a typo costs no request: sent as typed once it parses. */
function validJson(data: string): string {
  try {
    JSON.parse(data);
    return data;
  } catch (error) {
    throw new CliError(`-d is not valid JSON: ${(error as Error).message}`, EXIT.usage);
  }
}

/** A refusal's body as the SDK reads it (a proxy's non-JSON page becomes its message). */
function refusal(response: Response, text: string): PaymentsApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { message: text || `HTTP ${response.status}` };
  }
  return new PaymentsApiError(response.status, body, response.headers.get("x-request-id"));
}

/** Indented on a terminal for reading; exactly the bytes received with --json or into a pipe. */
function printBody(text: string, json: boolean): void {
  if (text === "") return;
  let shown = text;
  if (process.stdout.isTTY === true && !json) {
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: printed as it came.
    }
  }
  process.stdout.write(shown.endsWith("\n") ? shown : `${shown}\n`);
}

/**
 * `payments get|post <path>`: one request with the stored key, not retried (a POST without an
 * Idempotency-Key is not safe to repeat). A 2xx prints the body on stdout; a refusal throws the SDK's
 * PaymentsApiError, which the CLI prints on stderr with its exit code.
 */
export async function requestApi(
  method: "GET" | "POST",
  path: string,
  options: ApiRequestOptions,
): Promise<void> {
  // A bad command line is exit 2 whether or not anyone is logged in.
  const body = options.data === undefined ? undefined : validJson(options.data);
  const credentials = loadCredentials();
  const url = resolveApiPath(credentials.apiUrl, path);
  const headers: Record<string, string> = {
    Authorization: `Bearer ${credentials.apiKey}`,
    Accept: "application/json",
    "User-Agent": "payments-cli",
  };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
  let response: Response;
  try {
    response = await httpFetch(url, { method, headers, body });
  } catch (error) {
    throw new PaymentsConnectionError(`Could not reach ${url.origin}.`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw refusal(response, text);
  printBody(text, options.json === true);
}
