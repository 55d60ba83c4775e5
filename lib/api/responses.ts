import { DomainError, type DomainErrorKind } from "../errors";

/**
 * A response as plain data: node:http writes it as it is (no web `Response`, stream and copy per request);
 * under Next.js it becomes a `Response` (toWebResponse).
 */
export type ApiResponse = { status: number; headers: Record<string, string>; body: string | null };

/** Every API response is JSON; these are the Laravel-shaped bodies merchants' code matches on. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers }, body: JSON.stringify(body) };
}

export function toWebResponse(response: ApiResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}

/** A failure the HTTP layer detects itself (bad JSON, body too large, unknown route), outside the domain. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  validation: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  throttled: 429,
};

export const UNAUTHENTICATED = "Unauthenticated.";
export const UNAUTHORIZED = "This action is unauthorized.";

/** The one error mapper: domain and HTTP errors get their status and message; anything else is a bare 500. */
export function errorResponse(error: unknown): ApiResponse {
  if (error instanceof DomainError) {
    const status = STATUS_BY_KIND[error.kind];
    if (status === 401) return unauthenticatedResponse();
    return jsonResponse(status, error.fieldErrors ? { message: error.message, errors: error.fieldErrors } : { message: error.message });
  }
  if (error instanceof HttpError) return jsonResponse(error.status, { message: error.message }, error.headers);
  console.error("Unhandled API error", error);
  return jsonResponse(500, { message: "Server Error" });
}

export function unauthenticatedResponse(): ApiResponse {
  return jsonResponse(401, { message: UNAUTHENTICATED }, { "WWW-Authenticate": "Bearer" });
}
