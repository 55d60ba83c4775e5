import { IDEMPOTENCY_KEY_REUSED } from "@/lib/payments/idempotency";
import { VALIDATION_FAILED } from "@/lib/platform/errors";
import { messages } from "@/lib/platform/validation";

/** The largest request body the API reads; its 413 message names it. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Laravel's wording for a method a route does not serve. */
export function methodNotAllowedMessage(method: string, route: string, allowed: string[]): string {
  return `The ${method} method is not supported for route ${route}. Supported methods: ${allowed.join(", ")}.`;
}

export type ApiErrorEntry = {
  status: number;
  message: string;
  when: string;
  errors?: Record<string, string[]>;
};

/**
 * Every error answer of the API, in one table: the error mapper and handlers send these messages, the OpenAPI
 * document describes them, and the Developers page lists them.
 */
export const API_ERRORS = {
  malformedJson: {
    status: 400,
    message: "The request body is not valid JSON.",
    when: "The body is not valid JSON.",
  },
  bodyTooDeep: {
    status: 400,
    message: "The request body is nested too deeply.",
    when: "JSON nested thousands of levels deep (the parser keeps every digit of a number, and recurses).",
  },
  bodyNotObject: {
    status: 400,
    message: "The request body must be a JSON object.",
    when: "The body is JSON, but not an object.",
  },
  bodyIncomplete: {
    status: 400,
    message: "The request body ended before all of it arrived.",
    when: "The client closed the connection, or broke the framing, before the whole body arrived.",
  },
  unauthenticated: {
    status: 401,
    message: "Unauthenticated.",
    when: "Token missing, malformed, unknown, expired or revoked (with WWW-Authenticate: Bearer).",
  },
  unauthorized: {
    status: 403,
    message: "This action is unauthorized.",
    when: "A read-only token creating a payment, or another merchant's payment.",
  },
  notFound: { status: 404, message: "Not Found", when: "No such payment or path." },
  methodNotAllowed: {
    status: 405,
    message: methodNotAllowedMessage("PUT", "api/payments", ["GET", "HEAD", "POST"]),
    when: "Wrong method; the Allow header lists the right ones.",
  },
  bodyTimeout: {
    status: 408,
    message: "The request body did not arrive in time.",
    when: "The whole body did not arrive within API_BODY_TIMEOUT_MS (30 s): a stalled client. Nothing was written.",
  },
  idempotencyKeyReused: {
    status: 409,
    message: IDEMPOTENCY_KEY_REUSED,
    when: "An Idempotency-Key reused with another body.",
  },
  liveWithoutProcessor: {
    status: 409,
    message: "Connect a processor in Settings → Processor before taking live payments.",
    when: "A live key creating a payment or a payment link before the account's owners connected a processor.",
  },
  paymentLinkWithProcessor: {
    status: 409,
    message:
      "Payment links take the card on this platform's page; with a processor connected, create payments through the API.",
    when: "A payment link in an environment whose owners connected Mollie or Stripe (no card data may reach this platform).",
  },
  bodyTooLarge: {
    status: 413,
    message: `The request body must not be larger than ${MAX_BODY_BYTES / 1024} KiB.`,
    when: `A body over ${MAX_BODY_BYTES / 1024} KiB.`,
  },
  unsupportedMediaType: {
    status: 415,
    message: "Unsupported Media Type.",
    when: "A body whose Content-Type is not application/json, whose charset is not UTF-8, or whose Content-Encoding is not identity.",
  },
  validationFailed: {
    status: 422,
    message: VALIDATION_FAILED,
    when: "Validation failed; errors name each field.",
    errors: { amount: [messages.required("amount")] },
  },
  invalidUtf8: {
    status: 422,
    message: VALIDATION_FAILED,
    when: "The body's bytes are not valid UTF-8: errors name the field that holds them (body, outside any).",
    errors: { body: ["The request body must be valid UTF-8."] },
  },
  tooManyAttempts: {
    status: 429,
    message: "Too Many Attempts.",
    when: "Rate limit exceeded; Retry-After says how many seconds to wait.",
  },
  serverError: { status: 500, message: "Server Error", when: "Our fault; nothing else is disclosed." },
  serviceUnavailable: {
    status: 503,
    message: "Service Unavailable",
    when: "The database cannot be reached for a moment (a restart, an outage); Retry-After says when to retry.",
  },
} as const satisfies Record<string, ApiErrorEntry>;

export type ApiErrorName = keyof typeof API_ERRORS;

/** The JSON body of an error answer. */
export function apiErrorBody(entry: ApiErrorEntry): { message: string; errors?: Record<string, string[]> } {
  return entry.errors ? { message: entry.message, errors: entry.errors } : { message: entry.message };
}

/** A failure the HTTP layer detects itself (bad JSON, body too large, unknown route), outside the domain. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  static of(name: ApiErrorName, headers?: Record<string, string>): HttpError {
    return new HttpError(API_ERRORS[name].status, API_ERRORS[name].message, headers);
  }

  /** 413 for a route whose bodies may be larger than MAX_BODY_BYTES (a dispute's evidence), naming its limit. */
  static bodyTooLarge(maxBytes: number): HttpError {
    return maxBytes === MAX_BODY_BYTES
      ? HttpError.of("bodyTooLarge")
      : new HttpError(413, `The request body must not be larger than ${maxBytes / 1024} KiB.`);
  }
}

/** Live takes no payment until its owners connect a processor (DESIGN.md, "Live and sandboxes"): 409. */
export function refuseLiveWithoutProcessor(token: { environment: string; processor: string | null }): void {
  if (token.environment === "live" && token.processor === null) throw HttpError.of("liveWithoutProcessor");
}
