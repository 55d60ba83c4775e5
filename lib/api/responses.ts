import { isDatabaseUnavailable, isTransientConflict } from "@/db/errors";
import { DomainError, type DomainErrorKind } from "@/lib/platform/errors";
import { API_ERRORS, HttpError } from "./api-errors";
import type { ApiResponse } from "./types";

/** Every API response is JSON; these are the Laravel-shaped bodies merchants' code matches on. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ApiResponse {
  return {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}

export function toWebResponse(response: ApiResponse): Response {
  const { stream } = response;
  if (!stream) return new Response(response.body, { status: response.status, headers: response.headers });
  const encoder = new TextEncoder();
  const listeners: Array<() => void> = [];
  let buffered = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream({
        write: (chunk) => {
          const bytes = encoder.encode(chunk);
          buffered = Math.max(0, -(controller.desiredSize ?? 0)) + bytes.length;
          controller.enqueue(bytes);
        },
        end: () => {
          try {
            controller.close();
          } catch {
            // Already cancelled by the client.
          }
          for (const listener of listeners.splice(0)) listener();
        },
        onClose: (listener) => void listeners.push(listener),
        bufferedBytes: () => buffered,
      });
    },
    cancel() {
      for (const listener of listeners.splice(0)) listener();
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  validation: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  throttled: 429,
  unavailable: 503,
};

/** The one error mapper: domain and HTTP errors get their status and message; anything else is a bare 500. */
export function errorResponse(error: unknown): ApiResponse {
  if (error instanceof DomainError) {
    const status = STATUS_BY_KIND[error.kind];
    if (status === 401) return unauthenticatedResponse();
    if (status === 503) return jsonResponse(503, { message: error.message }, { "Retry-After": "5" });
    return jsonResponse(
      status,
      error.fieldErrors ? { message: error.message, errors: error.fieldErrors } : { message: error.message },
    );
  }
  if (error instanceof HttpError)
    return jsonResponse(error.status, { message: error.message }, error.headers);
  // Nothing was written (the transaction could not commit); the client may retry with the same request.
  // A conflict that survived its retry (onceMoreOnConflict): rolled back, so also safe to send again.
  if (isDatabaseUnavailable(error) || isTransientConflict(error))
    return { ...serviceUnavailableResponse(), error };
  return { ...jsonResponse(500, { message: API_ERRORS.serverError.message }), error };
}

/** The database cannot be reached for a moment: retry after a few seconds. */
export function serviceUnavailableResponse(): ApiResponse {
  return jsonResponse(503, { message: API_ERRORS.serviceUnavailable.message }, { "Retry-After": "5" });
}

export function unauthenticatedResponse(): ApiResponse {
  return jsonResponse(401, { message: API_ERRORS.unauthenticated.message }, { "WWW-Authenticate": "Bearer" });
}

/** The domain's "not yours" and "no such" in the API's words (the contract's bare 403 and 404); else as is. */
export function inApiWords(error: unknown): unknown {
  if (error instanceof DomainError && error.kind === "forbidden") return HttpError.of("unauthorized");
  if (error instanceof DomainError && error.kind === "not_found") return HttpError.of("notFound");
  return error;
}

export async function asApiAnswer<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw inApiWords(error);
  }
}
