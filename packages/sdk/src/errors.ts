/** Laravel's validation errors: field name → messages. */
export type FieldErrors = Record<string, string[]>;

/**
 * A refusal from the API: `status` (401, 403, 404, 409, 410, 422, 429, 5xx), its `message`, and for a 422
 * Laravel's `errors` per field. `requestId` is the X-Request-Id to quote to support (and to find in Logs).
 */
export class PaymentsApiError extends Error {
  readonly status: number;
  readonly errors: FieldErrors;
  readonly requestId: string | null;
  readonly body: unknown;

  constructor(status: number, body: unknown, requestId: string | null) {
    const record = (body ?? {}) as { message?: unknown; errors?: unknown };
    const errors = (record.errors as FieldErrors | undefined) ?? {};
    // A 422's message names what to fix (its first field error), as Laravel's own client message does; every
    // error stays on `errors`.
    const first = Object.values(errors).flat()[0];
    super(first ?? (typeof record.message === "string" ? record.message : `HTTP ${status}`));
    this.name = "PaymentsApiError";
    this.status = status;
    this.errors = errors;
    this.requestId = requestId;
    this.body = body;
  }
}

/** The API could not be reached at all (connection refused, DNS, timeout), after the retries. */
export class PaymentsConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentsConnectionError";
  }
}
