// Stripe's error object (docs.stripe.com/api/errors): `{ error: { type, code, param, message, decline_code,
// doc_url } }`, with the documented statuses: 400 bad request, 401 bad key, 402 request failed (card errors),
// 404 missing resource, 409 idempotency conflict, 500 Stripe's own fault.

export type ErrorType = "api_error" | "card_error" | "idempotency_error" | "invalid_request_error";

export interface ErrorBody {
  type: ErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  readonly body: ErrorBody;

  constructor(
    readonly status: number,
    body: ErrorBody,
  ) {
    super(body.message);
    this.body = body.code
      ? { ...body, doc_url: `https://stripe.com/docs/error-codes/${docSlug(body.code)}` }
      : body;
  }

  static missing(param: string) {
    return new ApiError(400, {
      type: "invalid_request_error",
      code: "parameter_missing",
      param,
      message: `Missing required param: ${param}.`,
    });
  }

  static invalid(param: string, message: string, code?: string) {
    return new ApiError(400, { type: "invalid_request_error", param, message, ...(code ? { code } : {}) });
  }

  static request(message: string, code?: string, param?: string) {
    return new ApiError(400, {
      type: "invalid_request_error",
      message,
      ...(code ? { code } : {}),
      ...(param ? { param } : {}),
    });
  }

  /** `kind` as Stripe words it: "checkout.session", "payment_intent", "refund", … */
  static notFound(kind: string, id: string, param = "id") {
    return new ApiError(404, {
      type: "invalid_request_error",
      code: "resource_missing",
      param,
      message: `No such ${kind}: '${id}'`,
    });
  }

  toJSON() {
    return { error: this.body };
  }
}

function docSlug(code: string) {
  return code.replace(/_/g, "-");
}

export function invalidKey(key: string) {
  return new ApiError(401, {
    type: "invalid_request_error",
    message: `Invalid API Key provided: ${maskKey(key)}`,
  });
}

export function noKey() {
  return new ApiError(401, {
    type: "invalid_request_error",
    message:
      "You did not provide an API key. You need to provide your API key in the Authorization header, using " +
      "Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
  });
}

/** As Stripe prints a rejected key: its prefix, stars for the hidden part, the last four characters. */
export function maskKey(key: string) {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? "";
  const rest = key.slice(prefix.length);
  if (rest.length <= 4) return `${prefix}${rest}`;
  return `${prefix}${"*".repeat(rest.length - 4)}${rest.slice(-4)}`;
}
