import { validationError } from "@/lib/platform/errors";
import type { ApiRequest } from "./types";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The optional `Idempotency-Key` header: 1 to 255 visible ASCII characters (a UUID is typical). */
export function readIdempotencyKey(request: ApiRequest): string | undefined {
  const key = request.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw validationError({
      "Idempotency-Key": [
        "The Idempotency-Key header must be 1 to 255 visible ASCII characters, such as a UUID.",
      ],
    });
  }
  return key;
}

/** The OpenAPI header parameter of a create that takes an Idempotency-Key. */
export function idempotencyKeyParameter(description: string) {
  return {
    name: "Idempotency-Key",
    in: "header" as const,
    required: false,
    description,
    schema: { type: "string" as const, maxLength: 255 },
  };
}
