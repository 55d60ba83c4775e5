import { DomainError, type FieldErrors } from "@/lib/errors";

/** What a server action hands back to its form: field errors, a banner message, and values to refill. */
export type FormState = {
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
  ok?: boolean;
};

/** Turns a DomainError into form state; anything else is a bug and is rethrown (Next shows the error page). */
export function formStateFromError(error: unknown, values?: Record<string, string>): FormState {
  if (error instanceof DomainError) {
    return error.fieldErrors
      ? { message: "Please correct the errors below.", errors: error.fieldErrors, values }
      : { message: error.message, values };
  }
  throw error;
}

/** A text field from a submitted form ("" when absent or not text). */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}
