/**
 * The one error type the domain throws for anything a caller did wrong. Each surface maps it: the API to a
 * Laravel-shaped JSON response, server actions to form state, the CLI to stderr and a non-zero exit.
 */
export type DomainErrorKind =
  | "validation"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "throttled"
  /** A service it depends on (a processor) is down, slow or refusing: nothing was written; retry later. */
  | "unavailable";

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Laravel's message for a 422, beside the field errors. */
export const VALIDATION_FAILED = "The given data was invalid.";

export function validationError(fieldErrors: FieldErrors): DomainError {
  return new DomainError("validation", VALIDATION_FAILED, fieldErrors);
}
