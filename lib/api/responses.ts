import { DomainError, type DomainErrorKind } from "../errors";

/** Every API response is JSON; these are the Laravel-shaped bodies merchants' code matches on. */
export function jsonResponse(status: number, body: unknown, headers: HeadersInit = {}): Response {
  const response = Response.json(body, { status, headers });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/** A failure the HTTP layer detects itself (bad JSON, body too large, unknown route), outside the domain. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: HeadersInit = {},
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
export function errorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const status = STATUS_BY_KIND[error.kind];
    if (status === 401) return unauthenticatedResponse();
    return jsonResponse(status, error.fieldErrors ? { message: error.message, errors: error.fieldErrors } : { message: error.message });
  }
  if (error instanceof HttpError) return jsonResponse(error.status, { message: error.message }, error.headers);
  console.error("Unhandled API error", error);
  return jsonResponse(500, { message: "Server Error" });
}

export function unauthenticatedResponse(): Response {
  return jsonResponse(401, { message: UNAUTHENTICATED }, { "WWW-Authenticate": "Bearer" });
}
